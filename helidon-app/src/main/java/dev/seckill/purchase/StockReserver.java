package dev.seckill.purchase;

import dev.seckill.sale.Sale;

/**
 * Takes a unit of a sale's stock for one buyer, atomically with the sale window, the one-per-user rule and the
 * buyer's rate limit, and gives it back. {@link RedisStockReserver} in the service; a fake in unit tests.
 */
public interface StockReserver {

    /**
     * @return {@link PurchaseOutcome.Queued} when the unit is reserved under {@code orderId} (not yet published), or
     *         under the id of the buyer's earlier reservation whose send failed (to be sent again: RESEND), else why
     *         not: already purchased, sold out, not started, ended or rate limited
     * @throws dev.seckill.failure.DependencyUnavailable when Redis fails, or the sale's keys are missing (Redis
     *         lost them; never answered as sold out or with fresh stock)
     */
    PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis);

    /**
     * Gives back the unit of {@code orderId} if it is still this buyer's and no send of it began at or after
     * {@code sentBeforeMillis} (idempotent); removes the buyer's unsent entry with it.
     *
     * @return the remaining stock after the undo, -1 when there was nothing to undo, -2 when the order was sent
     *         again since {@code sentBeforeMillis} (nothing changed)
     */
    long compensate(long saleId, long userId, long orderId, long sentBeforeMillis);

    /**
     * Records that the send of a reserved order, begun at {@code sentAtMillis}, failed: the unit stays held for a
     * resend (unsent.lua). Nothing is recorded when the buyer's mark is no longer this order.
     *
     * @return true when recorded (the unit is held for this order), false when the buyer's mark is another order
     */
    boolean unsent(long saleId, long userId, long orderId, long sentAtMillis);

    /** Forgets the buyer's unsent entry of {@code orderId}, now that the order is in Kafka or written (sent.lua). */
    void sent(long saleId, long userId, long orderId);
}
