package dev.seckill.bench;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * A sale after its run, settled: the writer caught up with its 202s (or three minutes passed), reconcile released what
 * its undecided answers left behind, and its invariants read from MySQL and its Redis master.
 */
record Settled(int reconciled, Invariants.Report invariants) {

    static Settled of(Stack stack, Admin admin, String run, long sale, List<Attempt> attempts) throws Exception {
        if (admin.awaitDrained(sale, attempts.stream().filter(Attempt::accepted).count(), Duration.ofMinutes(3))
                == null) {
            Bench.say(run + ": the writer did not catch up with sale " + sale + " within 180 s");
        }
        int reconciled = admin.reconcileAfterUndecided(sale, attempts);
        RedissonClient redis = StackRedis.forKey(stack, Keys.stock(sale), RedisClients::connect);
        try (Connection db = stack.db()) {
            return new Settled(reconciled, Invariants.check(db, redis, sale, attempts));
        } finally {
            redis.shutdown();
        }
    }
}
