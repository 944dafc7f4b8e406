package dev.seckill.protection;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Mints and checks purchase paths: {@code base64url(expiresEpochSeconds as 8 bytes || 16 bytes of
 * HMAC(pathKey, "path|v1|" saleId "|" userId "|" expires))}, 32 characters of {@code [A-Za-z0-9_-]}. Bound to one
 * user and one sale, short-lived, and checked with one HMAC and no lookup, so a forged, expired, foreign or
 * other-sale path is refused before Redis is asked anything. A path may buy more than once while it lives: the
 * one-per-user rule of purchase.lua already makes a second purchase ALREADY_PURCHASED.
 */
public final class PurchasePaths {

    /** What the edge accepts as a path segment (kept in step with openresty/conf.d/seckill.conf). */
    public static final Pattern SYNTAX = Pattern.compile("[A-Za-z0-9_-]{32}");
    private static final int MAC_BYTES = 16;

    private final KeyDerivation key;
    private final Duration ttl;
    private final Clock clock;

    public PurchasePaths(String tokenSecret, Duration ttl, Clock clock) {
        this.key = new KeyDerivation(tokenSecret, "seckill/purchase-path/v1");
        this.ttl = ttl;
        this.clock = clock;
    }

    /** A path and when it stops working. */
    public record Path(String path, Instant expiresAt) {
    }

    public Path mint(long saleId, long userId) {
        long expires = clock.instant().plus(ttl).getEpochSecond();
        byte[] raw = ByteBuffer.allocate(8 + MAC_BYTES).putLong(expires).put(mac(saleId, userId, expires)).array();
        return new Path(Base64.getUrlEncoder().withoutPadding().encodeToString(raw), Instant.ofEpochSecond(expires));
    }

    /** True only for an unexpired path minted for this user and this sale. */
    public boolean valid(long saleId, long userId, String path) {
        if (path == null || !SYNTAX.matcher(path).matches()) {
            return false;
        }
        ByteBuffer raw = ByteBuffer.wrap(Base64.getUrlDecoder().decode(path));
        long expires = raw.getLong();
        byte[] given = Arrays.copyOfRange(raw.array(), 8, 8 + MAC_BYTES);
        return MessageDigest.isEqual(given, mac(saleId, userId, expires))
                && clock.instant().getEpochSecond() < expires;
    }

    private byte[] mac(long saleId, long userId, long expires) {
        return Arrays.copyOf(key.mac("path|v1|" + saleId + "|" + userId + "|" + expires), MAC_BYTES);
    }
}
