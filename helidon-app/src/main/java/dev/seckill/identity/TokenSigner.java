package dev.seckill.identity;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * Mints and verifies user tokens: {@code v1.<userId>.<expiresEpochSeconds>.<base64url HMAC-SHA256>} over the part
 * before the signature, with a secret from configuration. The user id is inside the signed part, so a client
 * can never act as another user by changing a field.
 */
public final class TokenSigner {

    private static final String VERSION = "v1";
    private static final String ALGORITHM = "HmacSHA256";
    /** As long as the HMAC-SHA256 output: a shorter secret is the weakest part of the signature. */
    public static final int MIN_SECRET_BYTES = 32;

    private final SecretKeySpec key;
    private final Duration ttl;
    private final Clock clock;

    public TokenSigner(String secret, Duration ttl, Clock clock) {
        byte[] raw = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (raw.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the token secret (seckill.token.secret, SECKILL_TOKEN_SECRET) must be at "
                    + "least " + MIN_SECRET_BYTES + " bytes, it has " + raw.length);
        }
        this.key = new SecretKeySpec(raw, ALGORITHM);
        this.ttl = ttl;
        this.clock = clock;
    }

    public String mint(long userId) {
        if (userId <= 0) {
            throw new IllegalArgumentException("userId must be positive");
        }
        String payload = VERSION + "." + userId + "." + (clock.instant().plus(ttl).getEpochSecond());
        return payload + "." + sign(payload);
    }

    /** The user a valid, unexpired token names; empty for anything else (forged, expired, malformed). */
    public Optional<User> verify(String token) {
        if (token == null || token.length() > 256) {
            return Optional.empty();
        }
        int lastDot = token.lastIndexOf('.');
        if (lastDot < 0) {
            return Optional.empty();
        }
        String payload = token.substring(0, lastDot);
        byte[] given = token.substring(lastDot + 1).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(given, sign(payload).getBytes(StandardCharsets.US_ASCII))) {
            return Optional.empty();
        }
        String[] parts = payload.split("\\.");
        if (parts.length != 3 || !VERSION.equals(parts[0])) {
            return Optional.empty();
        }
        try {
            long userId = Long.parseLong(parts[1]);
            long expires = Long.parseLong(parts[2]);
            if (userId <= 0 || clock.instant().getEpochSecond() >= expires) {
                return Optional.empty();
            }
            return Optional.of(new User(userId));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private String sign(String payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("failed to sign a token: " + e.getMessage(), e);
        }
    }
}
