package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The stock in Redis: purchase.lua reserves units, for several buyers of a sale at once when {@link SaleBatches}
 * coalesces them. A lost answer is asked after ({@link LostAnswers}); with {@link ReplicaAcks} wanted, a reservation
 * counts only once enough replicas hold it ({@link ReplicaConfirmation}). Giving a unit back and the record of
 * failed sends are the {@link UnitLedger}'s.
 */
public final class RedisStockReserver implements StockReserver {

    private final ScriptRunner scripts;
    private final LimiterSettings limiter;
    private final LostAnswers lostAnswers;
    private final ReplicaConfirmation replicas;
    private final SaleBatches<Attempt, Decision> batches;

    /** One script call per attempt (no coalescing). */
    public RedisStockReserver(ScriptRunner scripts, LimiterSettings limiter, ReplicaAcks acks) {
        this(scripts, limiter, acks, 1, size -> { });
    }

    /**
     * @param coalesceMax most attempts of one sale decided in one call ({@code redis.coalesce-max}; 1: one call each)
     * @param batchSizes  told the number of attempts of every purchase.lua call
     */
    public RedisStockReserver(ScriptRunner scripts, LimiterSettings limiter, ReplicaAcks acks, int coalesceMax,
                              IntConsumer batchSizes) {
        this.scripts = scripts;
        this.limiter = limiter;
        this.lostAnswers = new LostAnswers(scripts);
        this.replicas = new ReplicaConfirmation(scripts, acks);
        this.batches = new SaleBatches<>(coalesceMax, this::decide, batchSizes);
    }

    /**
     * Decided alone, or with the other attempts of the sale that wait while one of its calls is in flight.
     *
     * @throws ReservationNotReplicated when the unit was reserved but too few replicas confirmed it (the caller
     *         gives it back)
     * @throws dev.seckill.failure.DependencyUnavailable when the buyer's earlier order is not known to stand yet
     */
    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        PurchaseOutcome outcome = batches.decide(sale.id(), new Attempt(sale, userId, orderId, nowMillis)).get();
        // Outside the batch: the wait for an earlier order's decision holds up no other buyer.
        return outcome instanceof PurchaseOutcome.AlreadyPurchased already
                ? replicas.standing(sale.id(), userId, already, nowMillis) : outcome;
    }

    /**
     * Decides attempts of one sale in one purchase.lua call, in order, each as if alone, then has the reserved ones
     * confirmed on their replicas. When the call fails, the script may have run for all of them or for none: each
     * attempt is then decided by whether its buyer's mark is its order.
     */
    public List<Decision> decide(List<Attempt> attempts) {
        Sale sale = attempts.getFirst().sale();
        List<Long> users = new ArrayList<>(attempts.size());
        Object[] args = new Object[2 + 3 * attempts.size()];
        args[0] = Double.toString(limiter.ratePerSecond());
        args[1] = Integer.toString(limiter.burst());
        int a = 2;
        for (Attempt attempt : attempts) {
            if (attempt.sale().id() != sale.id()) {
                throw new IllegalArgumentException("one call decides one sale: " + sale.id() + " and " + attempt.sale().id());
            }
            users.add(attempt.userId());
            args[a++] = Long.toString(attempt.userId());
            args[a++] = Long.toString(attempt.orderId());
            args[a++] = Long.toString(attempt.nowMillis());
        }
        List<Object> reply;
        try {
            reply = scripts.list(Script.PURCHASE, Keys.purchase(sale.id(), users), args);
        } catch (RedisException e) {
            return replicas.confirmed(sale.id(), attempts, lostAnswers.decide(sale.id(), attempts, e));
        }
        List<Decision> decisions = new ArrayList<>(attempts.size());
        for (int i = 0; i < attempts.size(); i++) {
            Attempt attempt = attempts.get(i);
            try {
                decisions.add(Decision.of(PurchaseCode.outcome(attempt.sale(), attempt.orderId(),
                        reply.subList(2 * i, 2 * i + 2))));
            } catch (RuntimeException e) {
                decisions.add(Decision.failed(e));
            }
        }
        return replicas.confirmed(sale.id(), attempts, decisions);
    }
}
