package dev.seckill.system.bench;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.scenario.ShardCeiling;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.redisson.api.RedissonClient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bench's ceiling of one shard (the large sale's "purchase-script call" part, the cluster comparison's EVALSHA
 * rows): redis-benchmark calling purchase.lua on the test stack's Redis, both paths, with the script's keys as the
 * service lays them out. A call the script refuses fails redis-benchmark, and so this test.
 */
class ShardCeilingIT {

    private final Stack stack = Stack.get();

    @Test
    void redisBenchmarkRunsThePurchaseScriptOnBothPaths(@TempDir Path dir) throws Exception {
        RedissonClient redis = StackRedis.connect(stack, RedisClients::connect);
        try {
            List<Measured> m = ShardCeiling.run(stack, redis, stack.redisPort(), 2_000, true, dir);
            assertEquals(2, m.size(), m.toString());
            try (Stream<Path> reports = Files.list(dir)) {
                assertEquals(2, reports.count(), "redis-benchmark's own report of each path is kept");
            }
            for (Measured x : m) {
                assertEquals(2_000, x.requests(), x.toString());
                assertTrue(x.rps() > 0, x.toString());
            }
        } finally {
            redis.shutdown();
        }
    }
}
