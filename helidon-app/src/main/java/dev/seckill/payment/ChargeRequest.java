package dev.seckill.payment;

/** One charge: the order it pays for, its owner, the amount, and the client's idempotency key. */
public record ChargeRequest(long orderId, long userId, long amountCents, String idempotencyKey) {
}
