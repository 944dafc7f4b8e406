package dev.seckill.identity;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.token} config section: the token secret ({@code SECKILL_TOKEN_SECRET}; its length is
 * {@link TokenSigner}'s to check), which signs the demo's HS256 JWTs and keys challenges and paths, and how long a
 * minted token lives. Sign-in tokens are checked by {@code seckill.jwt} ({@link JwtSettings}). The defaults are
 * application.yaml's.
 */
public record TokenSettings(String secret, Duration ttl) {

    public static TokenSettings from(Config token) {
        return new TokenSettings(Setting.text(token.get("secret")),
                Setting.duration(token.get("ttl-seconds"), ChronoUnit.SECONDS));
    }
}
