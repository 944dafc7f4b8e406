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
 * @param jwksMaxAge      how long a fetched set is used before the next token that needs a key fetches it again
 * @param jwksTimeout     the connect and read timeouts of a fetch
 * @param hs256Secret     the shared secret of HS256 tokens (at least 32 bytes); empty: HS256 is refused
 * @param claims          what the claims must say
 * @param cacheSize       how many verified tokens are remembered
 */
public record JwtSettings(String jwksUrl, Duration jwksRefresh, Duration jwksMaxAge, Duration jwksTimeout,
                          String hs256Secret, ClaimRules claims, long cacheSize) {

    public JwtSettings {
        if (jwksRefresh.isNegative() || jwksMaxAge.compareTo(jwksRefresh) < 0) {
            throw new IllegalArgumentException("seckill.jwt.jwks.max-age-seconds must be at least "
                    + "seckill.jwt.jwks.refresh-ms, and both 0 or more");
        }
        if (jwksTimeout.toMillis() < 1 || jwksTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("seckill.jwt.jwks.timeout-ms must be at least 1");
        }
        if (cacheSize < 0) {
            throw new IllegalArgumentException("seckill.jwt.cache.size must be 0 or more");
        }
    }

    public static JwtSettings from(Config jwt) {
        Config jwks = jwt.get("jwks");
        return new JwtSettings(Setting.text(jwks.get("url")).strip(),
                Setting.duration(jwks.get("refresh-ms"), ChronoUnit.MILLIS),
                Setting.duration(jwks.get("max-age-seconds"), ChronoUnit.SECONDS),
                Setting.duration(jwks.get("timeout-ms"), ChronoUnit.MILLIS),
                Setting.text(jwt.get("hs256.secret")),
                new ClaimRules(Setting.text(jwt.get("issuer")), Setting.text(jwt.get("audience")),
                        Setting.text(jwt.get("user.claim")).strip(),
                        Setting.duration(jwt.get("clock.skew.seconds"), ChronoUnit.SECONDS)),
                Setting.number(jwt.get("cache.size")));
    }
}
