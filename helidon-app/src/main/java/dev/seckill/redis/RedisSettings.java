package dev.seckill.redis;

import io.helidon.config.Config;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where Redis is and how the client talks to it: the connection keys of the {@code redis} config section, with
 * their defaults, read once. Either one server ({@code address}) or a Redis Cluster ({@code nodes}, a comma list
 * of seed nodes; when it is not empty the client runs in cluster mode and {@code address} is ignored).
 */
public record RedisSettings(String address, List<String> nodes, String password, int timeoutMs, int pool,
                            int nettyThreads) {

    static final String DEFAULT_ADDRESS = "redis://127.0.0.1:16379";
    /** The event-loop threads that write commands and read answers: 4, not Redisson's 32 (see application.yaml). */
    static final int DEFAULT_NETTY_THREADS = 4;
    private static final Pattern NODE = Pattern.compile("rediss?://(\\[[0-9A-Fa-f:.]+]|[^\\s/:\\[\\]]+):\\d{1,5}");

    public RedisSettings {
        nodes = List.copyOf(nodes);
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("redis.timeout-ms must be positive, not " + timeoutMs);
        }
        if (pool <= 0) {
            throw new IllegalArgumentException("redis.pool must be positive, not " + pool);
        }
        if (nettyThreads <= 0) {
            throw new IllegalArgumentException("redis.netty-threads must be positive, not " + nettyThreads);
        }
    }

    public static RedisSettings from(Config redis) {
        return new RedisSettings(
                node(redis.get("address").asString().orElse(DEFAULT_ADDRESS)),
                nodes(redis.get("nodes").asString().orElse("")),
                redis.get("password").asString().orElse(""),
                redis.get("timeout-ms").asInt().orElse(1000),
                redis.get("pool").asInt().orElse(256),
                redis.get("netty-threads").asInt().orElse(DEFAULT_NETTY_THREADS));
    }

    /** True when {@code nodes} names a Redis Cluster. */
    public boolean cluster() {
        return !nodes.isEmpty();
    }

    /**
     * A comma list of nodes as {@code redis://host:port} (or {@code rediss://}); a bare {@code host:port}, as the
     * stack scripts print them, gets {@code redis://}. Blank entries are skipped; anything else is refused, so a
     * typo stops the start instead of leaving a shard unreachable.
     */
    static List<String> nodes(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(n -> !n.isEmpty())
                .map(RedisSettings::node).toList();
    }

    private static String node(String n) {
        String address = n.contains("://") ? n : "redis://" + n;
        if (!NODE.matcher(address).matches()) {
            throw new IllegalArgumentException("a Redis node must read redis://host:port, not '" + n + "'");
        }
        return address;
    }
}
