package dev.seckill.bench.measure;

import dev.seckill.bench.Bench;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.report.Report;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * A sale after its run: the writer caught up with its 202s, reconcile released what its undecided answers left, and
 * its invariants read from MySQL and its Redis master.
 */
public record Settled(int reconciled, Invariants.Report invariants) {

    public static Settled of(Stack stack, Admin admin, String run, long sale, List<Attempt> attempts) throws Exception {
        awaitDrained(admin, run, sale, attempts, Duration.ofMinutes(3));
        int reconciled = admin.reconcileAfterUndecided(sale, attempts);
        RedissonClient redis = StackRedis.forKey(stack, Keys.stock(sale), RedisClients::connect);
        try (Connection db = stack.db()) {
            return new Settled(reconciled, Invariants.check(db, redis, sale, attempts));
        } finally {
            redis.shutdown();
        }
    }

    public static void awaitDrained(Admin admin, String run, long sale, List<Attempt> attempts, Duration timeout)
            throws Exception {
        if (admin.awaitDrained(sale, attempts.stream().filter(Attempt::accepted).count(), timeout) == null) {
            Bench.say(run + ": the writer did not catch up with sale " + sale + " within " + timeout.toSeconds()
                    + " s");
        }
    }
}
