package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;

import java.util.List;

/** Runs purchase.lua (reserve a unit) and compensate.lua (give it back) for one user. */
public final class StockReserver {

    private final ScriptRunner scripts;
    private final LimiterSettings limiter;

    public StockReserver(ScriptRunner scripts, LimiterSettings limiter) {
        this.scripts = scripts;
        this.limiter = limiter;
    }

    public Reservation reserve(long saleId, long userId, long orderId, long nowMillis) {
        List<Object> r = scripts.list(Script.PURCHASE, Keys.purchase(saleId, userId),
                Long.toString(userId), Long.toString(orderId), Long.toString(nowMillis),
                Double.toString(limiter.ratePerSecond()), Integer.toString(limiter.burst()));
        PurchaseOutcome outcome = PurchaseOutcome.of(((Number) r.get(0)).longValue());
        Object data = r.get(1);
        if (outcome == PurchaseOutcome.ALREADY_PURCHASED) {
            return new Reservation(outcome, 0, data.toString());
        }
        return new Reservation(outcome, ((Number) data).longValue(), null);
    }

    /**
     * Gives back the unit of {@code orderId} if it is still this buyer's (idempotent).
     *
     * @return the remaining stock after the undo, or -1 when there was nothing to undo
     */
    public long compensate(long saleId, long userId, long orderId) {
        return scripts.number(Script.COMPENSATE, Keys.compensate(saleId), Long.toString(userId), Long.toString(orderId));
    }
}
