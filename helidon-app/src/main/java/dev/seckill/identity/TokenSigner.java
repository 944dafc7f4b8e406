package dev.seckill.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;

/**
 * Mints the demo stack's sign-in tokens, in the format a shop's own identity provider would send: HS256 JWTs
 * {@code {"sub":"<userId>","iat","exp"}} signed with the token secret, which the stack's services also take as their
 * HS256 secret (bin/lib/components.sh passes it as SECKILL_JWT_HS256_SECRET). The demo sign-in, {@code bin/seckill
 * tokens}, the tests and the bench use it.
 */
public final class TokenSigner {

    /** As long as the HMAC-SHA256 output: a shorter secret is the weakest part of the signature. */
    public static final int MIN_SECRET_BYTES = TokenVerifier.MIN_SECRET_BYTES;

    private final MACSigner signer;
    private final TokenVerifier verifier;
    private final Duration ttl;
    private final Clock clock;

    public TokenSigner(String secret, Duration ttl, Clock clock) {
        byte[] raw = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (raw.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the token secret (seckill.token.secret, SECKILL_TOKEN_SECRET) must be at "
                    + "least " + MIN_SECRET_BYTES + " bytes, it has " + raw.length);
        }
        try {
            this.signer = new MACSigner(raw);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("failed to use the token secret: " + e.getMessage(), e);
        }
        this.verifier = new TokenVerifier(secret, null, ClaimRules.minted(), clock);
        this.ttl = ttl;
        this.clock = clock;
    }

    public String mint(long userId) {
        if (userId <= 0) {
            throw new IllegalArgumentException("userId must be positive");
        }
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(Long.toString(userId))
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ttl)))
                .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).build(),
                claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("failed to sign a token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    /** The user a valid, unexpired token of this signer names; empty for anything else (forged, expired, malformed). */
    public Optional<User> verify(String token) {
        return verifier.verify(token).signedIn();
    }
}
