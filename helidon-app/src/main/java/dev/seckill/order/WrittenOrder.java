package dev.seckill.order;

/** An order the batch writer has written: (sale, user) and price. */
public record WrittenOrder(long orderId, long saleId, long userId, long priceCents) {
}
