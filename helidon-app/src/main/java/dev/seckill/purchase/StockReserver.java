package dev.seckill.purchase;

import dev.seckill.sale.Sale;

/**
 * Takes a unit of a sale's stock for one buyer, atomically with the sale window, the one-per-user rule and the
 * buyer's rate limit, and gives it back. {@link RedisStockReserver} in the service; a fake in unit tests.
 */
public interface StockReserver {

    /**
     * @return {@link PurchaseOutcome.Queued} when the unit is reserved under {@code orderId} (not yet published),
     *         else why not: already purchased, sold out, not started, ended or rate limited
     * @throws dev.seckill.failure.DependencyUnavailable when Redis fails, or the sale's keys are missing (Redis
     *         lost them; never answered as sold out or with fresh stock)
     */
    PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis);

    /**
     * Gives back the unit of {@code orderId} if it is still this buyer's (idempotent).
     *
     * @return the remaining stock after the undo, or -1 when there was nothing to undo
     */
    long compensate(long saleId, long userId, long orderId);
}
