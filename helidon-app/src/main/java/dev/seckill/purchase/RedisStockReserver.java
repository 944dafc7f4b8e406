package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.SyncedReply;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.util.List;

/**
 * The stock in Redis: purchase.lua reserves a unit, compensate.lua gives it back. With {@link ReplicaAcks} wanted,
 * a reservation counts only once enough replicas hold it.
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
        List<Object> keys = Keys.purchase(sale.id(), userId);
        Object[] args = {Long.toString(userId), Long.toString(orderId), Long.toString(nowMillis),
                Double.toString(limiter.ratePerSecond()), Integer.toString(limiter.burst())};
        try {
            if (!acks.wanted()) {
                return outcome(sale, orderId, scripts.list(Script.PURCHASE, keys, args));
            }
            return confirmed(sale, orderId, scripts.listSynced(Script.PURCHASE, keys, acks, args), acks);
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run purchase.lua for sale " + sale.id(), e);
        }
    }

    /**
     * The outcome of a script run with its replica count. Only a reservation needs its replicas: a refusal wrote
     * nothing a failover could turn into a second sale (at most the limiter's bucket forgets a token).
     */
    static PurchaseOutcome confirmed(Sale sale, long orderId, SyncedReply synced, ReplicaAcks acks) {
        PurchaseOutcome outcome = outcome(sale, orderId, synced.reply());
        if (outcome instanceof PurchaseOutcome.Queued && !acks.satisfiedBy(synced.replicas())) {
            throw new ReservationNotReplicated(sale.id(), orderId, synced.replicas(), acks.required());
        }
        return outcome;
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
            // Keys gone (Redis lost its data, or the sale is being rebuilt): never SOLD_OUT, never fresh stock.
            case -1 -> throw new DependencyUnavailable("the Redis keys of sale " + sale.id() + " are missing; "
                    + "reconcile rebuilds them");
            default -> throw new IllegalStateException("purchase.lua returned unknown code " + code);
        };
    }

    @Override
    public long compensate(long saleId, long userId, long orderId) {
        try {
            return scripts.number(Script.COMPENSATE, Keys.compensate(saleId), Long.toString(userId), Long.toString(orderId));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run compensate.lua for sale " + saleId, e);
        }
    }
}
