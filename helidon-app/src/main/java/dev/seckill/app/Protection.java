package dev.seckill.app;

import dev.seckill.protection.Challenges;
import dev.seckill.protection.Gate;
import dev.seckill.protection.ProtectionSettings;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.RedisUsedChallenges;
import org.redisson.api.RedissonClient;

import java.time.Clock;

/**
 * Builds the gate of protected sales from {@code seckill.protection.*}. Its keys are derived from the token secret
 * (already checked by {@link Credentials}), one per purpose, so there is no new secret to configure.
 */
final class Protection {

    private Protection() {
    }

    static Gate gate(ProtectionSettings settings, String tokenSecret, RedissonClient redis, Clock clock) {
        return new Gate(new Challenges(tokenSecret, settings.challengeTtl(), clock),
                new PurchasePaths(tokenSecret, settings.pathTtl(), clock), new RedisUsedChallenges(redis, clock),
                clock);
    }
}
