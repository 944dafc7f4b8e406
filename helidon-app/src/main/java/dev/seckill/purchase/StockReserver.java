package dev.seckill.purchase;

import dev.seckill.sale.Sale;

/**
 * Takes a unit of a sale's stock for one buyer, atomically with the sale window, the one-per-user rule and the
 * buyer's rate limit. {@link RedisStockReserver} in the service, wrapped by the checks in front of it (an ended
 * sale, the breakers); a fake in unit tests. What becomes of a unit once taken is the {@link UnitLedger}'s.
 */
@FunctionalInterface
public interface StockReserver {

    /**
     * @return {@link PurchaseOutcome.Queued} when the unit is reserved under {@code orderId} (not yet published), or
     *         under the id of the buyer's earlier reservation whose send failed (to be sent again: RESEND), else why
     *         not: already purchased, sold out, not started, ended or rate limited
     * @throws dev.seckill.failure.DependencyUnavailable when Redis fails, or the sale's keys are missing (Redis
     *         lost them; never answered as sold out or with fresh stock)
     */
    PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis);
}
