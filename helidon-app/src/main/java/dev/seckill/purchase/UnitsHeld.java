package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;

/**
 * A sale has no stock left but units held for orders whose send to Kafka failed (purchase.lua HELD). They come back
 * to the sale or reach Kafka within seconds (the {@link Resender}, a buyer's retry, reconcile), so the answer is
 * 503 with Retry-After, never SOLD_OUT, and no sold-out flag is set.
 */
public final class UnitsHeld extends DependencyUnavailable {

    private final long saleId;

    public UnitsHeld(long saleId, long held) {
        super("sale " + saleId + " has no stock left but " + held + " units held by failed Kafka sends; they are "
                + "resent or released");
        this.saleId = saleId;
    }

    public long saleId() {
        return saleId;
    }
}
