package dev.seckill.bench;

import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

/**
 * Redisson on the stack's Redis, built by the service's own factory: the one way the bench and the tests open it.
 * SECKILL_REDIS_NODES (a cluster stack's nodes) wins over the single server's address.
 */
public final class StackRedis {

    private StackRedis() {
    }

    public static RedissonClient connect(Stack stack) {
        return RedisClients.connect(stack.redisAddress(), System.getenv("SECKILL_REDIS_NODES"), stack.redisPassword());
    }
}
