package dev.seckill.protection;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * HMAC-SHA256 keyed by a derived key: {@code HMAC(secret, label)} gives each use of the token secret its own key
 * (key separation), so a MAC made for one purpose (a challenge, a purchase path) is never valid for another, nor as
 * a user token. No new secret to configure or rotate.
 */
final class KeyDerivation {

    private static final String HMAC = "HmacSHA256";

    private final SecretKeySpec key;

    KeyDerivation(String secret, String label) {
        this.key = new SecretKeySpec(mac(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), HMAC),
                label.getBytes(StandardCharsets.UTF_8)), HMAC);
    }

    byte[] mac(String data) {
        return mac(key, data.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] mac(SecretKeySpec k, byte[] data) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(k);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("failed to compute an HMAC: " + e.getMessage(), e);
        }
    }
}
