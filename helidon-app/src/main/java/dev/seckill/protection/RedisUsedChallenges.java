package dev.seckill.protection;

import dev.seckill.redis.Keys;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Used challenges in Redis: {@code SET key 1 NX PX ttl} under the sale's hash tag (see {@link Keys#usedChallenge}),
 * living exactly as long as the challenge could still be answered, so the record never outgrows the live
 * challenges. A Redis failure propagates (503): without the record a replay could not be refused.
 */
public final class RedisUsedChallenges implements UsedChallenges {

    private final RedissonClient redis;
    private final Clock clock;

    public RedisUsedChallenges(RedissonClient redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    @Override
    public boolean firstUse(long saleId, String salt, Instant expiresAt) {
        // At least a millisecond: a challenge that expires right now has already been let through by its check.
        Duration ttl = Duration.ofMillis(Math.max(1, expiresAt.toEpochMilli() - clock.millis()));
        return redis.getBucket(Keys.usedChallenge(saleId, salt), StringCodec.INSTANCE).setIfAbsent("1", ttl);
    }
}
