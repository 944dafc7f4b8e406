package dev.seckill.identity;

import java.time.Duration;

/**
 * What a token's claims must say, once its signature holds.
 *
 * @param issuer    the only accepted {@code iss}; empty: not checked
 * @param audience  a value {@code aud} must hold; empty: not checked
 * @param userClaim the claim that names the user (a positive 64-bit integer, as a JSON number or a decimal string)
 * @param skew      how far the service's clock may be behind or ahead of the issuer's, for {@code exp} and {@code nbf}
 */
public record ClaimRules(String issuer, String audience, String userClaim, Duration skew) {

    public ClaimRules {
        if (userClaim == null || userClaim.isBlank()) {
            throw new IllegalArgumentException("seckill.jwt.user.claim (SECKILL_JWT_USER_CLAIM) must name a claim");
        }
        if (skew.isNegative() || skew.toSeconds() > 600) {
            throw new IllegalArgumentException("seckill.jwt.clock.skew.seconds (SECKILL_JWT_CLOCK_SKEW_SECONDS) must be "
                    + "from 0 to 600");
        }
    }

    /** The rules of the tokens {@link TokenSigner} mints: the user in {@code sub}, no issuer, audience or skew. */
    static ClaimRules minted() {
        return new ClaimRules("", "", "sub", Duration.ZERO);
    }
}
