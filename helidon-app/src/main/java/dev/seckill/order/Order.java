package dev.seckill.order;

import java.time.Instant;

/**
 * One order as its owner sees it.
 *
 * @param payBy  the end of the payment window (the row's written time + the sale's window, on the database's
 *               clock); null while QUEUED
 * @param paidAt when the payment was recorded; null unless PAID
 */
public record Order(long orderId, long saleId, long userId, long priceCents, OrderState state, Instant payBy,
                    Instant paidAt) {

    /** A reservation that has no row yet. */
    public static Order queued(long orderId, long saleId, long userId, long priceCents) {
        return new Order(orderId, saleId, userId, priceCents, OrderState.QUEUED, null, null);
    }
}
