package dev.seckill.line;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Signs and checks line tickets: {@code l1.<saleId>.<userId>.<place>.<expiresEpochSeconds>.<base64url HMAC-SHA1>}
 * over everything before the last dot, {@code place} being {@code p<random>} or {@code s<sequence>}. The edge checks
 * the same signature with ngx.hmac_sha1 (openresty/lua/seckill/line.lua), without calling anyone: HMAC-SHA1 because
 * it is the one HMAC ngx_lua has built in, and it is sound as a MAC.
 */
public final class LineTickets {

    /** As long as the HMAC-SHA1 key block needs to be strong, and what bin/seckill generates. */
    public static final int MIN_SECRET_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA1";
    private static final Pattern FORM = Pattern.compile(
            "^l1\\.([1-9][0-9]{0,18})\\.([1-9][0-9]{0,18})\\.([ps])([0-9]{1,16})\\.([0-9]{1,12})\\.([A-Za-z0-9_-]{27})$");

    /** Why a ticket was refused: the code of the 403. */
    public enum Refusal { TICKET_INVALID, TICKET_EXPIRED }

    /** A ticket that checked out, or why not. */
    public record Checked(LineTicket ticket, Refusal refusal) {
    }

    private final SecretKeySpec key;
    private final Clock clock;

    public LineTickets(String secret, Clock clock) {
        byte[] bytes = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("seckill.line.secret must be at least " + MIN_SECRET_BYTES + " bytes");
        }
        this.key = new SecretKeySpec(bytes, ALGORITHM);
        this.clock = clock;
    }

    public String sign(LineTicket t) {
        String payload = "l1." + t.saleId() + "." + t.userId() + "." + t.place() + "." + t.expires();
        return payload + "." + mac(payload);
    }

    /** The ticket of {@code saleId} in {@code raw} (a header value, may be null), or why it is refused. */
    public Checked check(String raw, long saleId) {
        Matcher m = raw == null ? null : FORM.matcher(raw);
        if (m == null || !m.matches()) {
            return new Checked(null, Refusal.TICKET_INVALID);
        }
        String payload = raw.substring(0, raw.lastIndexOf('.'));
        if (!MessageDigest.isEqual(mac(payload).getBytes(StandardCharsets.US_ASCII),
                m.group(6).getBytes(StandardCharsets.US_ASCII))) {
            return new Checked(null, Refusal.TICKET_INVALID);
        }
        LineTicket t;
        try {
            t = new LineTicket(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), m.group(3).equals("p"),
                    Long.parseLong(m.group(4)), Long.parseLong(m.group(5)));
        } catch (NumberFormatException e) {
            return new Checked(null, Refusal.TICKET_INVALID);
        }
        if (t.saleId() != saleId) {
            return new Checked(null, Refusal.TICKET_INVALID);
        }
        if (clock.instant().getEpochSecond() >= t.expires()) {
            return new Checked(null, Refusal.TICKET_EXPIRED);
        }
        return new Checked(t, null);
    }

    private String mac(String payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
