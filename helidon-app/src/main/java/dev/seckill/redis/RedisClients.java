package dev.seckill.redis;

import dev.seckill.config.ServiceConfig;
import io.helidon.config.ConfigSources;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.BaseConfig;
import org.redisson.config.EqualJitterDelay;
import org.redisson.config.ReadMode;
import org.redisson.config.SubscriptionMode;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds the Redisson client: the service's from its {@code redis} settings, and anyone else's (tests, the bench)
 * from an address or a node list and a password, over the rest of the service's application.yaml: the same
 * settings and defaults.
 */
public final class RedisClients {

    /** Redisson tries a command once more after a failed try: fail fast, a purchase answers 503 rather than wait. */
    private static final int RETRY_ATTEMPTS = 1;
    /** The longest Redisson waits between two tries of a command (jittered from 1 s). */
    private static final Duration RETRY_DELAY_MAX = Duration.ofSeconds(2);
    /**
     * The client's event-loop threads, which write the commands and read the answers. Redisson's default is 32; on the
     * bench's two cores 4 decided a hot sale 1.19x faster, fewer threads competing for the cores the answers wait on
     * (bench/results/2026-11-earlier-purchase-path-speed-up.md).
     */
    private static final int NETTY_THREADS = 4;

    private RedisClients() {
    }

    /**
     * The longest a command can take by Redisson's own limits, with a second to spare: each try may connect and wait
     * for its answer, a retry waits its delay first, and a synced call waits for its replicas too. A caller that has
     * no answer by then stops waiting ({@link ScriptRunner}).
     */
    public static Duration commandLimit(RedisSettings s) {
        return Duration.ofMillis((RETRY_ATTEMPTS + 1) * 2L * s.timeoutMs()).plus(RETRY_DELAY_MAX)
                .plus(s.replicaAcks().timeout()).plusSeconds(1);
    }

    public static RedissonClient create(RedisSettings settings) {
        return Redisson.create(redissonConfig(settings));
    }

    /**
     * The one way to open the stack's Redis outside the service.
     *
     * @param address  the single server, {@code redis://host:port}; ignored when {@code nodes} is not blank
     * @param nodes    Redis Cluster seed nodes, comma-separated ({@code host:port} or {@code redis://host:port});
     *                 blank or null: the single server
     * @param password empty or null: no AUTH
     */
    public static RedissonClient connect(String address, String nodes, String password) {
        Map<String, String> redis = new HashMap<>();
        if (address != null) {
            redis.put("redis.address", address);
        }
        redis.put("redis.nodes", nodes == null ? "" : nodes);
        redis.put("redis.password", password == null ? "" : password);
        return create(RedisSettings.from(ServiceConfig.with(ConfigSources.create(redis)).get("redis")));
    }

    /** The {@code redis} settings of application.yaml, without environment overrides. */
    static RedisSettings defaults() {
        return RedisSettings.from(ServiceConfig.with(ConfigSources.create(Map.of())).get("redis"));
    }

    static org.redisson.config.Config redissonConfig(RedisSettings s) {
        org.redisson.config.Config cfg = new org.redisson.config.Config();
        // Scripts and keys are plain strings and integers; the default binary codec would garble Lua arguments.
        cfg.setCodec(StringCodec.INSTANCE);
        cfg.setNettyThreads(NETTY_THREADS);
        // Empty: a Redis without AUTH (a bare local one); bin/seckill generates one into the run directory.
        if (!s.password().isEmpty()) {
            cfg.setPassword(s.password());
        }
        if (s.cluster()) {
            limits(cfg.useClusterServers(), s)
                    .addNodeAddress(s.nodes().toArray(String[]::new))
                    // Stock, buyers and buckets are read where they are written: a replica may be behind.
                    // Subscriptions on masters too, so the client opens no pools on replicas at all.
                    .setReadMode(ReadMode.MASTER)
                    .setSubscriptionMode(SubscriptionMode.MASTER)
                    // Topology refresh: a promoted replica is used within a second of the cluster's failover,
                    // not after the default 5 s of answering 503 for its shard.
                    .setScanInterval(1000)
                    // Per master: each shard gets the pool a single server gets.
                    .setMasterConnectionPoolSize(s.pool())
                    .setMasterConnectionMinimumIdleSize(Math.min(32, s.pool()));
        } else {
            limits(cfg.useSingleServer(), s)
                    .setAddress(s.address())
                    .setConnectionPoolSize(s.pool())
                    .setConnectionMinimumIdleSize(Math.min(32, s.pool()));
        }
        // Do not fail start-up when Redis is down: readiness reports it and purchases answer 503 until it is back.
        cfg.setLazyInitialization(true);
        return cfg;
    }

    /** What a single server and a cluster share: timeouts, retries and the background reconnect. */
    private static <T extends BaseConfig<T>> T limits(T server, RedisSettings s) {
        return server
                .setTimeout(s.timeoutMs())
                .setConnectTimeout(s.timeoutMs())
                // Fail fast: a purchase that cannot reach Redis answers 503 instead of waiting through retries.
                .setRetryAttempts(RETRY_ATTEMPTS)
                .setRetryDelay(new EqualJitterDelay(Duration.ofSeconds(1), RETRY_DELAY_MAX))
                // A PING on every idle pooled connection this often; one not answered by the next is closed and
                // reconnected, failing whatever else was in flight on it. At 1 s a one-second stall of this JVM or
                // its CPU (two shared cores under a crowd and a cluster) closed healthy connections by the dozen and
                // opened the Redis breakers; a dead Redis process closes its sockets at once anyway, and commands
                // still time out after timeout-ms. Reconnecting is the connection watchdog's, not the ping's.
                .setPingConnectionInterval(10_000);
    }
}
