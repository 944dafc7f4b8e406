package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.client.RedisException;

import java.util.ArrayList;
import java.util.List;

/**
 * purchase.lua failed in the client (a timeout, a closed connection): it may have run all the same and only its
 * answer was lost. A 503 promises that nothing is held for the buyer, so this asks Redis, in one confirm.lua call
 * for the whole batch, whether each buyer's mark is its attempt's order: if it is, the unit is the buyer's and the
 * purchase goes on (to its replicas' confirmation and Kafka) as if the answer had come; if not, nothing was reserved
 * for it and 503 is the truth, kept true by the same atomic step: confirm.lua fences that order id, so a copy of the
 * call that runs late (stalled in a socket, or resent by Redisson) reserves nothing ({@link Fence}). Only when this
 * question fails too is the outcome unknown: the 503 says so, and the purchase notes the order for the resender
 * ({@link ReservationUnknown}; docs/failures.md). confirm.lua writes no mark, so asking cannot take a unit itself.
 */
final class LostAnswers {

    private final ScriptRunner scripts;

    LostAnswers(ScriptRunner scripts) {
        this.scripts = scripts;
    }

    /** The decisions of a call of {@code attempts} whose answer was {@code lost}, one per attempt, in order. */
    List<Decision> decide(long saleId, List<Attempt> attempts, RedisException lost) {
        List<Object> pairs = new ArrayList<>(2 * attempts.size());
        for (Attempt attempt : attempts) {
            pairs.add(Long.toString(attempt.userId()));
            pairs.add(Long.toString(attempt.orderId()));
        }
        List<Object> marks;
        try {
            marks = scripts.list(Script.CONFIRM, Keys.confirm(saleId), Fence.confirmArgs(attempts, pairs));
        } catch (RedisException again) {
            lost.addSuppressed(again);
            ReservationUnknown unknown = new ReservationUnknown("failed to run purchase.lua for sale " + saleId
                    + ", and to learn whether it reserved units (the resender records one it did)", lost);
            return attempts.stream().map(x -> Decision.failed(unknown)).toList();
        }
        List<Decision> decisions = new ArrayList<>(attempts.size());
        for (int i = 0; i < attempts.size(); i++) {
            decisions.add(((Number) marks.get(i)).longValue() == 1
                    ? Decision.of(new PurchaseOutcome.Queued(Long.toString(attempts.get(i).orderId())))
                    : Decision.failed(new DependencyUnavailable("failed to run purchase.lua for sale " + saleId
                            + " (it reserved nothing)", lost)));
        }
        return decisions;
    }
}
