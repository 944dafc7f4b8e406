package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.util.List;

/**
 * The stock in Redis: purchase.lua reserves a unit, compensate.lua gives it back, unsent.lua and sent.lua keep the
 * record of an order whose send failed. With {@link ReplicaAcks} wanted, a reservation counts only once enough
 * replicas hold it (confirm.lua and WAIT).
 */
public final class RedisStockReserver implements StockReserver {

    private final ScriptRunner scripts;
    private final LimiterSettings limiter;
    private final ReplicaAcks acks;

    public RedisStockReserver(ScriptRunner scripts, LimiterSettings limiter, ReplicaAcks acks) {
        this.scripts = scripts;
        this.limiter = limiter;
        this.acks = acks;
    }

    /**
     * @throws ReservationNotReplicated when the unit was reserved but too few replicas confirmed it (the caller
     *         gives it back)
     */
    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        PurchaseOutcome outcome;
        try {
            outcome = outcome(sale, orderId, scripts.list(Script.PURCHASE, Keys.purchase(sale.id(), userId),
                    Long.toString(userId), Long.toString(orderId), Long.toString(nowMillis),
                    Double.toString(limiter.ratePerSecond()), Integer.toString(limiter.burst())));
        } catch (RedisException e) {
            outcome = afterLostAnswer(sale.id(), userId, orderId, e);
        }
        // Only a reservation needs its replicas: a refusal wrote nothing a failover could turn into a second sale
        // (at most the limiter's bucket forgets a token), so it answers without waiting for any.
        // A RESEND is queued under the earlier order's id: that is the reservation to confirm.
        if (outcome instanceof PurchaseOutcome.Queued q && acks.wanted()) {
            long reserved = Long.parseLong(q.orderId());
            requireReplicated(sale.id(), reserved, confirm(sale.id(), userId, reserved), acks);
        }
        return outcome;
    }

    /**
     * purchase.lua failed in the client (a timeout, a closed connection): it may have run all the same and only its
     * answer was lost. A 503 promises that nothing is held for the buyer, so this asks Redis whether the buyer's mark
     * is this attempt's order (confirm.lua, which writes nothing else): if it is, the unit is the buyer's and the
     * purchase goes on to Kafka as if the answer had come; if not, nothing was reserved and 503 is the truth. Only
     * when this question fails too is the outcome unknown: the 503 says so, and reconcile gives back a unit that no
     * order ever claims (docs/failures.md).
     */
    private PurchaseOutcome afterLostAnswer(long saleId, long userId, long orderId, RedisException lost) {
        long mark;
        try {
            mark = scripts.number(Script.CONFIRM, Keys.confirm(saleId), Long.toString(userId), Long.toString(orderId));
        } catch (RedisException again) {
            lost.addSuppressed(again);
            throw new DependencyUnavailable("failed to run purchase.lua for sale " + saleId
                    + ", and to learn whether it reserved a unit (reconcile releases one no order claims)", lost);
        }
        if (mark == 1) {
            return new PurchaseOutcome.Queued(Long.toString(orderId));
        }
        throw new DependencyUnavailable("failed to run purchase.lua for sale " + saleId + " (it reserved nothing)", lost);
    }

    /** confirm.lua and WAIT: whether the reservation is still there, and how many replicas have it. */
    private Synced confirm(long saleId, long userId, long orderId) {
        try {
            return scripts.numberSynced(Script.CONFIRM, Keys.confirm(saleId), acks, Long.toString(userId),
                    Long.toString(orderId));
        } catch (RedisException e) {
            // The reservation may stand on the master alone: the caller gives it back like any unconfirmed one.
            throw new ReservationNotReplicated(saleId, orderId, "its confirmation failed: " + e.getMessage());
        }
    }

    /** A reservation stands once it is still on its master (confirm.lua 1) and enough replicas hold it. */
    static void requireReplicated(long saleId, long orderId, Synced confirmed, ReplicaAcks acks) {
        if (confirmed.reply() != 1) {
            throw new ReservationNotReplicated(saleId, orderId, "it is gone from its master (a failover lost it)");
        }
        if (!acks.satisfiedBy(confirmed.replicas())) {
            throw new ReservationNotReplicated(saleId, orderId, "it reached " + confirmed.replicas() + " of the "
                    + acks.required() + " replicas it needs in time");
        }
    }

    /** The one mapping of purchase.lua's {code, data} reply, in the order of the script's header. */
    static PurchaseOutcome outcome(Sale sale, long orderId, List<Object> reply) {
        long code = ((Number) reply.get(0)).longValue();
        Object data = reply.get(1);
        return switch (Math.toIntExact(code)) {
            case 0 -> new PurchaseOutcome.Queued(Long.toString(orderId));
            // Our own order id: the client retried a script that had run (its answer was lost), so it is ours.
            case 1 -> data.toString().equals(Long.toString(orderId)) ? new PurchaseOutcome.Queued(Long.toString(orderId))
                    : new PurchaseOutcome.AlreadyPurchased(data.toString());
            case 2 -> new PurchaseOutcome.SoldOut(false);
            case 3 -> new PurchaseOutcome.NotStarted(sale.startsAt(), ((Number) data).longValue());
            case 4 -> new PurchaseOutcome.SaleEnded();
            case 5 -> new PurchaseOutcome.RateLimited(((Number) data).longValue());
            // The buyer's unit is still held for an order whose send failed: queue that order again, same id.
            case 6 -> new PurchaseOutcome.Queued(data.toString());
            // Sold out but for units held by failed sends: they come back, so 503 and no sold-out flag.
            case 7 -> throw new UnitsHeld(sale.id(), ((Number) data).longValue());
            // Keys gone (Redis lost its data, or the sale is being rebuilt): never SOLD_OUT, never fresh stock.
            case -1 -> throw new DependencyUnavailable("the Redis keys of sale " + sale.id() + " are missing; "
                    + "reconcile rebuilds them");
            default -> throw new IllegalStateException("purchase.lua returned unknown code " + code);
        };
    }

    @Override
    public long compensate(long saleId, long userId, long orderId, long sentBeforeMillis) {
        try {
            return scripts.number(Script.COMPENSATE, Keys.compensate(saleId), Long.toString(userId),
                    Long.toString(orderId), Long.toString(sentBeforeMillis));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run compensate.lua for sale " + saleId, e);
        }
    }

    @Override
    public boolean unsent(long saleId, long userId, long orderId, long sentAtMillis) {
        try {
            return 1 == scripts.number(Script.UNSENT, Keys.unsentSend(saleId), Long.toString(userId), Long.toString(orderId),
                    Long.toString(sentAtMillis));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run unsent.lua for sale " + saleId, e);
        }
    }

    @Override
    public void sent(long saleId, long userId, long orderId) {
        try {
            scripts.number(Script.SENT, Keys.sent(saleId), Long.toString(userId), Long.toString(orderId));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run sent.lua for sale " + saleId, e);
        }
    }
}
