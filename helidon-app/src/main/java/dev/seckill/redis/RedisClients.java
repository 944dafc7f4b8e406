package dev.seckill.redis;

import io.helidon.config.Config;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/** Builds the Redisson client from the {@code redis} config section. */
public final class RedisClients {

    private RedisClients() {
    }

    public static RedissonClient create(Config redis) {
        org.redisson.config.Config cfg = new org.redisson.config.Config();
        // Scripts and keys are plain strings and integers; the default binary codec would garble Lua arguments.
        cfg.setCodec(StringCodec.INSTANCE);
        int timeout = redis.get("timeout-ms").asInt().orElse(1000);
        var server = cfg.useSingleServer();
        // Empty: a Redis without AUTH (a bare local one); bin/seckill generates one into the run directory.
        String password = redis.get("password").asString().orElse("");
        if (!password.isEmpty()) {
            server.setPassword(password);
        }
        server
                .setAddress(redis.get("address").asString().orElse("redis://127.0.0.1:16379"))
                .setTimeout(timeout)
                .setConnectTimeout(timeout)
                // Fail fast: a purchase that cannot reach Redis answers 503 instead of waiting through retries.
                .setRetryAttempts(1)
                .setConnectionPoolSize(redis.get("pool").asInt().orElse(256))
                .setConnectionMinimumIdleSize(32)
                // Keep trying to reconnect in the background while Redis is down.
                .setPingConnectionInterval(1000);
        // Do not fail start-up when Redis is down: readiness reports it and purchases answer 503 until it is back.
        cfg.setLazyInitialization(true);
        return Redisson.create(cfg);
    }
}
