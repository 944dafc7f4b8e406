package dev.seckill.redis;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code redis} config section, read once: where Redis is and how the client talks to it, the replicas a
 * reservation needs, and how many purchase attempts of a sale one script call decides. Either one server
 * ({@code address}) or a Redis Cluster ({@code nodes}, a comma list of seed nodes; when it is not empty the client
 * runs in cluster mode and {@code address} is ignored). The defaults, and why each was chosen, are application.yaml's.
 *
 * @param coalesceMax most attempts of one sale in one purchase.lua call (1: one call each; checked by SaleBatches)
 */
public record RedisSettings(String address, List<String> nodes, String password, int timeoutMs, int pool,
                            ReplicaAcks replicaAcks, int coalesceMax) {

    private static final Pattern NODE = Pattern.compile("rediss?://(\\[[0-9A-Fa-f:.]+]|[^\\s/:\\[\\]]+):\\d{1,5}");

    public RedisSettings {
        nodes = List.copyOf(nodes);
        if (timeoutMs <= 0) {
            throw new IllegalArgumentException("redis.timeout-ms must be positive, not " + timeoutMs);
        }
        if (pool <= 0) {
            throw new IllegalArgumentException("redis.pool must be positive, not " + pool);
        }
    }

    public static RedisSettings from(Config redis) {
        return new RedisSettings(
                node(Setting.text(redis.get("address"))),
                nodes(Setting.text(redis.get("nodes"))),
                Setting.text(redis.get("password")),
                Setting.integer(redis.get("timeout-ms")),
                Setting.integer(redis.get("pool")),
                new ReplicaAcks(Setting.integer(redis.get("replica-acks")),
                        Setting.duration(redis.get("replica-timeout-ms"), ChronoUnit.MILLIS)),
                Setting.integer(redis.get("coalesce-max")));
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
