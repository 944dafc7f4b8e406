package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.util.List;

/** The stock in Redis: purchase.lua reserves a unit, compensate.lua gives it back. */
public final class RedisStockReserver implements StockReserver {

    private final ScriptRunner scripts;
    private final LimiterSettings limiter;

    public RedisStockReserver(ScriptRunner scripts, LimiterSettings limiter) {
        this.scripts = scripts;
        this.limiter = limiter;
    }

    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        List<Object> r;
        try {
            r = scripts.list(Script.PURCHASE, Keys.purchase(sale.id(), userId),
                    Long.toString(userId), Long.toString(orderId), Long.toString(nowMillis),
                    Double.toString(limiter.ratePerSecond()), Integer.toString(limiter.burst()));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run purchase.lua for sale " + sale.id(), e);
        }
        return outcome(sale, orderId, r);
    }

    /** The one mapping of purchase.lua's {code, data} reply, in the order of the script's header. */
    static PurchaseOutcome outcome(Sale sale, long orderId, List<Object> reply) {
        long code = ((Number) reply.get(0)).longValue();
        Object data = reply.get(1);
        return switch (Math.toIntExact(code)) {
            case 0 -> new PurchaseOutcome.Queued(Long.toString(orderId));
            case 1 -> new PurchaseOutcome.AlreadyPurchased(data.toString());
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
