package dev.seckill.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.seckill.testkit.ShopKeys;

import java.time.Instant;
import java.util.Date;

/**
 * The moment the tests stand at, claims and the shared secret's tokens; the provider's keys and the tokens they sign
 * are the test kit's {@link ShopKeys}, the clock its {@code TestClock}.
 */
final class TestTokens {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    static final String SECRET = "0123456789abcdef0123456789abcdef";

    private TestTokens() {
    }

    /** Claims of user {@code user}, issued now, expiring in an hour. */
    static JWTClaimsSet.Builder claims(Object user) {
        return new JWTClaimsSet.Builder().claim("sub", user).issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(3600)));
    }

    static String hs256(String secret, JWTClaimsSet claims) {
        try {
            return ShopKeys.sign(JWSAlgorithm.HS256, null, new MACSigner(secret), claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }
}
