package dev.seckill.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;

/** Keys, a clock the test moves, and tokens signed any way a shop's provider (or a forger) would sign them. */
final class TestTokens {

    static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    static final String SECRET = "0123456789abcdef0123456789abcdef";

    private TestTokens() {
    }

    static RSAKey rsa(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static ECKey ec(String kid) {
        try {
            return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims of user {@code user}, issued now, expiring in an hour. */
    static JWTClaimsSet.Builder claims(Object user) {
        return new JWTClaimsSet.Builder().claim("sub", user).issueTime(Date.from(NOW))
                .expirationTime(Date.from(NOW.plusSeconds(3600)));
    }

    static String sign(JWSAlgorithm alg, String kid, JWSSigner signer, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    /** Signed by the key with its own kid: RS256 for an RSA key, ES256 for a P-256 one. */
    static String sign(JWK key, JWTClaimsSet claims) {
        try {
            return key instanceof RSAKey rsa
                    ? sign(JWSAlgorithm.RS256, key.getKeyID(), new RSASSASigner(rsa), claims)
                    : sign(JWSAlgorithm.ES256, key.getKeyID(), new ECDSASigner((ECKey) key), claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hs256(String secret, JWTClaimsSet claims) {
        try {
            return sign(JWSAlgorithm.HS256, null, new MACSigner(secret), claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A clock the test moves. */
    static final class MovingClock extends Clock {
        Instant now = NOW;

        void advanceSeconds(long s) {
            now = now.plusSeconds(s);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
