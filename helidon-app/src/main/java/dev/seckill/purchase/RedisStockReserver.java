package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The stock in Redis: purchase.lua reserves units (for several buyers of a sale at once when {@link SaleBatches}
 * coalesces them). With {@link ReplicaAcks} wanted, a reservation counts only once enough replicas hold it
 * (confirm.lua and WAIT). Giving a unit back and the record of failed sends are the {@link RedisUnitLedger}'s.
 */
public final class RedisStockReserver implements StockReserver {

    /** One buyer's purchase attempt: what {@link #reserve} is asked. */
    public record Attempt(Sale sale, long userId, long orderId, long nowMillis) {
    }

    /** One attempt's decision: its outcome, or the failure its purchase answers with. */
    public record Decision(PurchaseOutcome outcome, RuntimeException failure) {

        static Decision of(PurchaseOutcome outcome) {
            return new Decision(outcome, null);
        }

        static Decision failed(RuntimeException failure) {
            return new Decision(null, failure);
        }

        /** The outcome, or the failure thrown. */
        public PurchaseOutcome get() {
            if (failure != null) {
                throw failure;
            }
            return outcome;
        }
    }

    /**
     * Default {@code redis.coalesce-max}. A call of 64 buyers still runs in well under a millisecond of Redis time
     * (a few commands each), so it holds up no other sale on the shard for long; past the edge's 256 purchases in
     * flight, a hot sale's queue is rarely longer.
     */
    public static final int DEFAULT_COALESCE_MAX = 64;

    private final ScriptRunner scripts;
    private final LimiterSettings limiter;
    private final ReplicaAcks acks;
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
        this.acks = acks;
        this.batches = new SaleBatches<>(coalesceMax, this::decide, batchSizes);
    }

    /**
     * Decided alone, or with the other attempts of the sale that wait while one of its calls is in flight.
     *
     * @throws ReservationNotReplicated when the unit was reserved but too few replicas confirmed it (the caller
     *         gives it back)
     */
    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        return batches.decide(sale.id(), new Attempt(sale, userId, orderId, nowMillis)).get();
    }

    /**
     * Decides attempts of one sale in one purchase.lua call, in order, each as if alone; with {@link ReplicaAcks}
     * wanted, confirms the reserved ones in one confirm.lua call and its WAIT.
     *
     * When the call fails, the script may have run for all of them or for none: each attempt is then decided by
     * whether its buyer's mark is its order ({@link #afterLostAnswer}).
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
            return afterLostAnswer(sale.id(), attempts, e);
        }
        List<Decision> decisions = new ArrayList<>(attempts.size());
        for (int i = 0; i < attempts.size(); i++) {
            Attempt attempt = attempts.get(i);
            try {
                decisions.add(Decision.of(PurchaseCode.outcome(attempt.sale(), attempt.orderId(), reply.subList(2 * i, 2 * i + 2))));
            } catch (RuntimeException e) {
                decisions.add(Decision.failed(e));
            }
        }
        // Only a reservation needs its replicas: a refusal wrote nothing a failover could turn into a second sale
        // (at most the limiter's bucket forgets a token), so it answers without waiting for any.
        if (acks.wanted()) {
            confirmReserved(sale.id(), attempts, decisions);
        }
        return decisions;
    }

    /**
     * purchase.lua failed in the client (a timeout, a closed connection): it may have run all the same and only its
     * answer was lost. A 503 promises that nothing is held for the buyer, so this asks Redis, in one confirm.lua call
     * for the whole batch, whether each buyer's mark is its attempt's order: if it is, the unit is the buyer's and
     * the purchase goes on (to its replicas' confirmation and Kafka) as if the answer had come; if not, nothing was
     * reserved for it and 503 is the truth. Only when this question fails too is the outcome unknown: the 503 says
     * so, and reconcile gives back a unit that no order ever claims (docs/failures.md).
     */
    private List<Decision> afterLostAnswer(long saleId, List<Attempt> attempts, RedisException lost) {
        List<Object> pairs = new ArrayList<>(2 * attempts.size());
        for (Attempt attempt : attempts) {
            pairs.add(Long.toString(attempt.userId()));
            pairs.add(Long.toString(attempt.orderId()));
        }
        List<Object> marks;
        try {
            marks = scripts.list(Script.CONFIRM, Keys.confirm(saleId), pairs.toArray());
        } catch (RedisException again) {
            lost.addSuppressed(again);
            DependencyUnavailable unknown = new DependencyUnavailable("failed to run purchase.lua for sale " + saleId
                    + ", and to learn whether it reserved units (reconcile releases one no order claims)", lost);
            return attempts.stream().map(x -> Decision.failed(unknown)).toList();
        }
        List<Decision> decisions = new ArrayList<>(attempts.size());
        for (int i = 0; i < attempts.size(); i++) {
            decisions.add(((Number) marks.get(i)).longValue() == 1
                    ? Decision.of(new PurchaseOutcome.Queued(Long.toString(attempts.get(i).orderId())))
                    : Decision.failed(new DependencyUnavailable("failed to run purchase.lua for sale " + saleId
                            + " (it reserved nothing)", lost)));
        }
        if (acks.wanted()) {
            confirmReserved(saleId, attempts, decisions);
        }
        return decisions;
    }

    /**
     * confirm.lua and one WAIT for every reservation of a call: each stands only if still on its master and enough
     * replicas hold it. A RESEND is queued under the earlier order's id: that is the reservation to confirm.
     */
    private void confirmReserved(long saleId, List<Attempt> attempts, List<Decision> decisions) {
        List<Integer> reserved = new ArrayList<>();
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < decisions.size(); i++) {
            if (decisions.get(i).outcome() instanceof PurchaseOutcome.Queued q) {
                reserved.add(i);
                args.add(Long.toString(attempts.get(i).userId()));
                args.add(q.orderId());
            }
        }
        if (reserved.isEmpty()) {
            return;
        }
        Synced confirmed;
        try {
            confirmed = scripts.listSynced(Script.CONFIRM, Keys.confirm(saleId), acks, args.toArray());
        } catch (RedisException e) {
            // The reservations may stand on the master alone: the callers give them back like any unconfirmed one.
            for (int i : reserved) {
                long orderId = Long.parseLong(((PurchaseOutcome.Queued) decisions.get(i).outcome()).orderId());
                decisions.set(i, Decision.failed(new ReservationNotReplicated(saleId, orderId,
                        "its confirmation failed: " + e.getMessage())));
            }
            return;
        }
        for (int k = 0; k < reserved.size(); k++) {
            int i = reserved.get(k);
            long orderId = Long.parseLong(((PurchaseOutcome.Queued) decisions.get(i).outcome()).orderId());
            try {
                requireReplicated(saleId, orderId, confirmed.replies().get(k), confirmed.replicas(), acks);
            } catch (ReservationNotReplicated e) {
                decisions.set(i, Decision.failed(e));
            }
        }
    }

    /** A reservation stands once it is still on its master (confirm.lua 1) and enough replicas hold it. */
    static void requireReplicated(long saleId, long orderId, long stillThere, int replicas, ReplicaAcks acks) {
        if (stillThere != 1) {
            throw new ReservationNotReplicated(saleId, orderId, "it is gone from its master (a failover lost it)");
        }
        if (!acks.satisfiedBy(replicas)) {
            throw new ReservationNotReplicated(saleId, orderId, "it reached " + replicas + " of the "
                    + acks.required() + " replicas it needs in time");
        }
    }
}
