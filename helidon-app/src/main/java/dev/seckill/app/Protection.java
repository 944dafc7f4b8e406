package dev.seckill.app;

import dev.seckill.protection.Challenges;
import dev.seckill.protection.Gate;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.RedisUsedChallenges;
import io.helidon.config.Config;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;

/**
 * Builds the gate of protected sales from {@code seckill.protection.*}. Its keys are derived from the token secret
 * (already checked by {@link Credentials}), one per purpose, so there is no new secret to configure.
 */
final class Protection {

    /** A person solves in well under a second; a minute covers a slow phone and the round trips. */
    private static final long CHALLENGE_TTL_SECONDS = 60;
    /** The path is used right after it is issued (one click); two minutes cover retries after a 429 or a 503. */
    private static final long PATH_TTL_SECONDS = 120;

    private Protection() {
    }

    static Gate gate(Config app, RedissonClient redis, Clock clock) {
        String secret = app.get("token.secret").asString().orElse("");
        return new Gate(new Challenges(secret, challengeTtl(app), clock),
                new PurchasePaths(secret, pathTtl(app), clock), new RedisUsedChallenges(redis, clock), clock);
    }

    /** {@code seckill.protection.challenge-ttl-seconds} of the {@code seckill} node, 1-3600. */
    static Duration challengeTtl(Config app) {
        return seconds(app, "protection.challenge-ttl-seconds", CHALLENGE_TTL_SECONDS);
    }

    /** {@code seckill.protection.path-ttl-seconds} of the {@code seckill} node, 1-3600. */
    static Duration pathTtl(Config app) {
        return seconds(app, "protection.path-ttl-seconds", PATH_TTL_SECONDS);
    }

    private static Duration seconds(Config app, String key, long fallback) {
        long s = app.get(key).asLong().orElse(fallback);
        if (s < 1 || s > 3600) {
            throw new IllegalArgumentException("seckill." + key + " must be from 1 to 3600 seconds");
        }
        return Duration.ofSeconds(s);
    }
}
