package dev.seckill.protection;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Issues challenges and checks their solutions without keeping them: the challenge id carries its salt and expiry
 * and a MAC binding them to the user, the sale and the difficulty, so the service can check a solution from the id
 * alone. The salt is 128 random bits drawn when the challenge is issued (only while the sale runs), so nobody can
 * solve anything before the start. That a challenge is used only once is the job of {@link UsedChallenges}.
 *
 * <p>Id: {@code <salt>.<expiresEpochMillis>.<base64url 16 bytes of HMAC(challengeKey,
 * "challenge|v1|" saleId "|" userId "|" salt "|" expires "|" bits)>}.
 */
public final class Challenges {

    private static final Pattern ID = Pattern.compile("([A-Za-z0-9_-]{22})\\.([0-9]{1,15})\\.([A-Za-z0-9_-]{22})");
    private static final int MAC_BYTES = 16;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final KeyDerivation key;
    private final Duration ttl;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public Challenges(String tokenSecret, Duration ttl, Clock clock) {
        this.key = new KeyDerivation(tokenSecret, "seckill/challenge/v1");
        this.ttl = ttl;
        this.clock = clock;
    }

    /** What the client gets: solve {@code salt} to {@code bits} before {@code expiresAt}. */
    public record Challenge(String challengeId, String salt, int bits, Instant expiresAt) {
    }

    public enum Verdict { SOLVED, FAILED, EXPIRED }

    /** What a solution comes to, and for a SOLVED one the salt and expiry its used-challenge record needs. */
    public record Checked(Verdict verdict, String salt, Instant expiresAt) {
        static final Checked FAILED = new Checked(Verdict.FAILED, null, null);
    }

    public Challenge issue(long saleId, long userId, int bits) {
        byte[] s = new byte[16];
        random.nextBytes(s);
        String salt = B64.encodeToString(s);
        long expires = clock.instant().plus(ttl).toEpochMilli();
        String id = salt + "." + expires + "." + B64.encodeToString(mac(saleId, userId, salt, expires, bits));
        return new Challenge(id, salt, bits, Instant.ofEpochMilli(expires));
    }

    /**
     * Checks a solution: a forged or foreign id (another user, sale or difficulty) and a wrong nonce FAIL; a genuine
     * id past its expiry is EXPIRED whatever the nonce (checked before the hash: it is the cheaper answer).
     */
    public Checked check(long saleId, long userId, int bits, String challengeId, String nonce) {
        var m = challengeId == null ? null : ID.matcher(challengeId);
        if (m == null || !m.matches()) {
            return Checked.FAILED;
        }
        String salt = m.group(1);
        long expires = Long.parseLong(m.group(2));
        byte[] given = Base64.getUrlDecoder().decode(m.group(3));
        if (!MessageDigest.isEqual(given, mac(saleId, userId, salt, expires, bits))) {
            return Checked.FAILED;
        }
        if (clock.millis() >= expires) {
            return new Checked(Verdict.EXPIRED, salt, Instant.ofEpochMilli(expires));
        }
        return ProofOfWork.solves(salt, nonce, bits)
                ? new Checked(Verdict.SOLVED, salt, Instant.ofEpochMilli(expires)) : Checked.FAILED;
    }

    private byte[] mac(long saleId, long userId, String salt, long expires, int bits) {
        return Arrays.copyOf(key.mac("challenge|v1|" + saleId + "|" + userId + "|" + salt + "|" + expires + "|" + bits),
                MAC_BYTES);
    }
}
