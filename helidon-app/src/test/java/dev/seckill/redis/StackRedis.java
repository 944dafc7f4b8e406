package dev.seckill.redis;

import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

/**
 * A Redis client on the test stack's Redis, built by the service's own factory: its single server, or its cluster
 * when SECKILL_REDIS_NODES names one.
 */
public final class StackRedis {

    private StackRedis() {
    }

    public static RedissonClient connect() {
        return RedisClients.connect(Stack.get().redisAddress(), System.getenv("SECKILL_REDIS_NODES"),
                Stack.get().redisPassword());
    }
}
