package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code bin/seckill bench --cluster}'s Redis ceiling: {@link RedisCeiling} (redis-benchmark, EVALSHA of the purchase
 * script) on one Redis, written as {@code redis-ceiling.json} into the out directory. With {@code --cluster} that
 * Redis is the master that serves the test sale's slot now, the ceiling of one shard, and so of one sale; without,
 * the single stack's Redis. Arguments: {@code --out DIR [--cluster] [--requests N]}.
 */
public final class ShardCeiling {

    static final String FILE = "redis-ceiling.json";
    private static final int DEFAULT_REQUESTS = 100_000;

    private ShardCeiling() {
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("").setLevel(Level.WARNING);
        Path out = null;
        boolean cluster = false;
        int requests = DEFAULT_REQUESTS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--cluster" -> cluster = true;
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("bench: unknown option " + args[i] + "; usage: --out DIR [--cluster] [--requests N]");
                    System.exit(2);
                }
            }
        }
        if (out == null) {
            System.err.println("bench: --out DIR is required");
            System.exit(2);
        }
        Stack stack = Stack.get();
        String where = "redis";
        int port = stack.redisPort();
        if (cluster) {
            ClusterStack c = ClusterStack.get();
            where = c.redis().masterOf(RedisCeiling.testSaleKey())
                    .orElseThrow(() -> new IllegalStateException("no master serves the test sale's slot"));
            port = c.port(where);
        }
        // A client of that one node, not of the cluster: the test sale's keys and the script are all on it, and a
        // cluster client's lazy first connect can hang for good when a node drops the connection meanwhile (seen on
        // a loaded machine with Redisson's lazy initialization).
        RedissonClient redis = RedisClients.connect("redis://127.0.0.1:" + port, null, stack.redisPassword());
        try {
            Bench.say("redis-benchmark of the purchase script on " + where + " (127.0.0.1:" + port + ")");
            List<Measured> results = RedisCeiling.run(stack, redis, port, requests);
            Files.createDirectories(out);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve(FILE).toFile(), results);
            for (Measured m : results) {
                System.out.println(String.format(Locale.ROOT, "%s on %s: %,.0f calls/s, p50 %.2f ms, p99 %.2f ms",
                        m.name(), where, m.rps(), m.latency().p50(), m.latency().p99()));
            }
        } finally {
            redis.shutdown();
        }
    }
}
