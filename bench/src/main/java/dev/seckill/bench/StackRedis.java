package dev.seckill.bench;

import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.redisson.api.RedissonClient;

import java.util.HashMap;
import java.util.Map;

/**
 * Redisson on the stack's Redis, built by the service's own factory from the same {@code redis} settings the
 * service reads (address and password): the one way the bench and the tests open it.
 */
public final class StackRedis {

    private StackRedis() {
    }

    public static RedissonClient connect(Stack stack) {
        Map<String, String> redis = new HashMap<>();
        redis.put("address", stack.redisAddress());
        // No password (a stack from before Redis had one) is no key at all, so nothing depends on how the factory
        // reads an empty one.
        if (!stack.redisPassword().isEmpty()) {
            redis.put("password", stack.redisPassword());
        }
        return RedisClients.create(Config.just(ConfigSources.create(redis)));
    }
}
