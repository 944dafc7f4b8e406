package dev.seckill.identity;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.jwt} config section: how the shop's sign-in tokens are checked (docs/shop.md). Its keys are
 * nested so that the documented environment names map onto them without {@code _}: SECKILL_JWT_JWKS_URL is
 * {@code seckill.jwt.jwks.url}, SECKILL_JWT_CLOCK_SKEW_SECONDS {@code seckill.jwt.clock.skew.seconds}. The defaults
 * are application.yaml's.
 *
 * @param jwksUrl         the identity provider's JWKS (RS256, ES256); empty: none
 * @param jwksRefresh     the least time between two fetches of it (a token naming an unknown key asks for one)
 * @param jwksTimeout     the connect and read timeouts of a fetch
 * @param hs256Secret     the shared secret of HS256 tokens (at least 32 bytes); empty: HS256 is refused
 * @param claims          what the claims must say
 */
public record JwtSettings(String jwksUrl, Duration jwksRefresh, Duration jwksTimeout, String hs256Secret,
                          ClaimRules claims) {

    /**
     * How long a fetched JWKS is used before the next token that needs a key fetches it again: 5 minutes, Nimbus
     * JOSE+JWT's default JWKS cache lifespan. A rotated-in key is fetched at once anyway (its unknown kid asks), so
     * this only bounds how long a key the provider withdrew is still believed.
     */
    public static final Duration JWKS_MAX_AGE = Duration.ofMinutes(5);
    /**
     * Verified tokens remembered, each until its exp at most, so a buyer's repeated clicks cost one signature check:
     * at most 20,000 x 4 KiB (tokens are typically under 1 KiB); a token pushed out costs one more check, not an error.
     */
    public static final long CACHE_SIZE = 20_000;

    public JwtSettings {
        if (jwksRefresh.isNegative() || JWKS_MAX_AGE.compareTo(jwksRefresh) < 0) {
            throw new IllegalArgumentException("seckill.jwt.jwks.refresh-ms must be 0 or more and at most "
                    + JWKS_MAX_AGE.toMillis() + " (a JWKS's age before it is fetched again)");
        }
        if (jwksTimeout.toMillis() < 1 || jwksTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("seckill.jwt.jwks.timeout-ms must be at least 1");
        }
    }

    public static JwtSettings from(Config jwt) {
        Config jwks = jwt.get("jwks");
        return new JwtSettings(Setting.text(jwks.get("url")).strip(),
                Setting.duration(jwks.get("refresh-ms"), ChronoUnit.MILLIS),
                Setting.duration(jwks.get("timeout-ms"), ChronoUnit.MILLIS),
                Setting.text(jwt.get("hs256.secret")),
                new ClaimRules(Setting.text(jwt.get("issuer")), Setting.text(jwt.get("audience")),
                        Setting.text(jwt.get("user.claim")).strip(),
                        Setting.duration(jwt.get("clock.skew.seconds"), ChronoUnit.SECONDS)));
    }
}
