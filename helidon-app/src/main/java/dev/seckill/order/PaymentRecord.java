package dev.seckill.order;

/**
 * The payment of an order as stored with it: the client's idempotency key, and the provider's name and reference.
 */
public record PaymentRecord(String idempotencyKey, String provider, String reference, long amountCents) {
}
