package dev.seckill.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Checks a shop's sign-in token, a JWS-signed JWT (docs/contract.md, Identity): RS256 and ES256 against the
 * identity provider's keys ({@link JwksKeys}), HS256 against the shared secret, nothing else. The algorithm decides
 * where the key comes from, never the token: an HS256 token is checked with the secret only, so one "signed" with a
 * public key of the JWKS fails, and {@code alg: none} or an encrypted JWT is refused before any key. The claims are
 * read only once the signature holds. Every refusal is a value with a stable reason; nothing here throws for a
 * token, whatever it holds.
 */
public final class TokenVerifier implements TokenCheck {

    /** An RS256 JWT with a few claims is about 700 characters; a token past this is no sign-in token. */
    public static final int MAX_LENGTH = 4096;
    /** As long as the HMAC-SHA256 output, as RFC 7518 asks of an HS256 key. */
    public static final int MIN_SECRET_BYTES = 32;
    private static final Set<JWSAlgorithm> FROM_JWKS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

    private final JWSVerifier secret;
    private final JwksKeys keys;
    private final ClaimRules rules;
    private final Clock clock;

    /**
     * @param hs256Secret the shared secret; empty: HS256 is refused
     * @param keys        the identity provider's keys; null: RS256 and ES256 are refused
     */
    public TokenVerifier(String hs256Secret, JwksKeys keys, ClaimRules rules, Clock clock) {
        this.secret = hs256Secret == null || hs256Secret.isEmpty() ? null : macVerifier(hs256Secret);
        this.keys = keys;
        if (secret == null && keys == null) {
            throw new IllegalArgumentException("no way to check a sign-in token: set SECKILL_JWT_JWKS_URL "
                    + "(seckill.jwt.jwks.url) or SECKILL_JWT_HS256_SECRET (seckill.jwt.hs256.secret)");
        }
        this.rules = rules;
        this.clock = clock;
    }

    private static JWSVerifier macVerifier(String hs256Secret) {
        byte[] raw = hs256Secret.getBytes(StandardCharsets.UTF_8);
        if (raw.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the HS256 secret (seckill.jwt.hs256.secret, SECKILL_JWT_HS256_SECRET) "
                    + "must be at least " + MIN_SECRET_BYTES + " bytes, it has " + raw.length);
        }
        try {
            return new MACVerifier(raw);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("failed to use the HS256 secret: " + e.getMessage(), e);
        }
    }

    @Override
    public Verification verify(String token) {
        if (token == null || token.isEmpty() || token.length() > MAX_LENGTH) {
            return refused(TokenRefusal.MALFORMED);
        }
        JWT parsed;
        try {
            parsed = JWTParser.parse(token);
        } catch (ParseException e) {
            return refused(TokenRefusal.MALFORMED);
        }
        // alg none (a PlainJWT) and encrypted tokens carry no signature this service could check.
        if (!(parsed instanceof SignedJWT jwt)) {
            return refused(TokenRefusal.ALGORITHM_NOT_ALLOWED);
        }
        JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
        TokenRefusal signature;
        if (JWSAlgorithm.HS256.equals(alg) && secret != null) {
            signature = holds(jwt, secret) ? null : TokenRefusal.BAD_SIGNATURE;
        } else if (FROM_JWKS.contains(alg) && keys != null) {
            signature = checkWithKeys(jwt);
        } else {
            signature = TokenRefusal.ALGORITHM_NOT_ALLOWED;
        }
        if (signature != null) {
            return refused(signature);
        }
        try {
            return claims(jwt.getJWTClaimsSet());
        } catch (ParseException e) {
            // The payload is not a JSON object, or a registered claim (exp, nbf, iss, aud) has the wrong type.
            return refused(TokenRefusal.MALFORMED);
        }
    }

    /** Null when one of the provider's keys the header may mean signed it. */
    private TokenRefusal checkWithKeys(SignedJWT jwt) {
        List<JWK> candidates = keys.candidates(jwt.getHeader());
        if (candidates.isEmpty()) {
            return TokenRefusal.UNKNOWN_KEY;
        }
        for (JWK key : candidates) {
            JWSVerifier v = verifierOf(key);
            if (v != null && holds(jwt, v)) {
                return null;
            }
        }
        return TokenRefusal.BAD_SIGNATURE;
    }

    private static JWSVerifier verifierOf(JWK key) {
        try {
            return switch (key) {
                case RSAKey rsa -> new RSASSAVerifier(rsa);
                case ECKey ec -> new ECDSAVerifier(ec);
                default -> null;
            };
        } catch (JOSEException e) {
            return null;
        }
    }

    private static boolean holds(SignedJWT jwt, JWSVerifier verifier) {
        try {
            return jwt.verify(verifier);
        } catch (JOSEException | IllegalStateException e) {
            // A signature of the wrong shape (an ES256 one that is not 64 bytes), or a critical header it cannot honour.
            return false;
        }
    }

    private Verification claims(JWTClaimsSet claims) {
        if (claims.getExpirationTime() == null) {
            return refused(TokenRefusal.EXPIRY_REQUIRED);
        }
        Instant now = clock.instant();
        Instant expires = claims.getExpirationTime().toInstant();
        if (!now.isBefore(expires.plus(rules.skew()))) {
            return refused(TokenRefusal.TOKEN_EXPIRED);
        }
        if (claims.getNotBeforeTime() != null && now.plus(rules.skew()).isBefore(claims.getNotBeforeTime().toInstant())) {
            return refused(TokenRefusal.TOKEN_NOT_YET_VALID);
        }
        if (!rules.issuer().isEmpty() && !rules.issuer().equals(claims.getIssuer())) {
            return refused(TokenRefusal.WRONG_ISSUER);
        }
        if (!rules.audience().isEmpty() && (claims.getAudience() == null
                || !claims.getAudience().contains(rules.audience()))) {
            return refused(TokenRefusal.WRONG_AUDIENCE);
        }
        long user = userId(claims.getClaim(rules.userClaim()));
        return user > 0 ? new Verification.Verified(new User(user), expires) : refused(TokenRefusal.BAD_USER_CLAIM);
    }

    /**
     * A positive 64-bit user id, as a JSON number or a decimal string in the one spelling of docs/contract.md#ids
     * (no sign, no leading zero); 0 for anything else (a fraction, a number past 2^63 - 1, other text).
     */
    static long userId(Object claim) {
        if (claim instanceof Long l) {
            return Math.max(l, 0);
        }
        if (claim instanceof Integer i) {
            return Math.max(i, 0);
        }
        if (claim instanceof String s && s.matches("[1-9][0-9]{0,18}")) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    private static Verification refused(TokenRefusal reason) {
        return new Verification.Refused(reason);
    }
}
