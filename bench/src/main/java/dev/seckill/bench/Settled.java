package dev.seckill.bench;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * A sale after its run, once settled: the writer caught up with its 202s (or three minutes passed), reconcile
 * released what its undecided answers left behind ({@link Admin#reconcileAfterUndecided}), and its invariants read
 * from MySQL and its Redis master.
 */
record Settled(int reconciled, Invariants.Report invariants) {

    private static final Duration DRAIN = Duration.ofSeconds(180);

    static Settled of(Stack stack, Admin admin, String run, long sale, List<Attempt> attempts)
            throws IOException, InterruptedException, SQLException {
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        if (admin.awaitDrained(sale, accepted, DRAIN) == null) {
            Bench.say(run + ": the writer did not catch up with sale " + sale + " within " + DRAIN.toSeconds() + " s");
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
