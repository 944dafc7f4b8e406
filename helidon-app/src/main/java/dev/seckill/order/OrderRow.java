package dev.seckill.order;

/** One written order of a sale as the consistency view reads it: whose it is, its id and its state. */
public record OrderRow(long userId, long orderId, OrderState state) {
}
