package dev.seckill.redis;

import dev.seckill.testkit.Stack;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.redisson.api.RedissonClient;

import java.util.Map;

/** A Redis client on the test stack's Redis, built the way the service builds its own (address and password). */
public final class StackRedis {

    private StackRedis() {
    }

    public static RedissonClient connect() {
        Stack stack = Stack.get();
        return RedisClients.create(Config.just(ConfigSources.create(Map.of(
                "address", stack.redisAddress(), "password", stack.redisPassword()))));
    }
}
