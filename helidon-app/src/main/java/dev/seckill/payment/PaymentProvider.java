package dev.seckill.payment;

/**
 * Takes the shopper's money. The service charges first and then lets the database decide whether the order is paid
 * (a pay can race the expiry); a charge that lost is refunded. Implementations must treat a repeated
 * {@link ChargeRequest#idempotencyKey()} for the same order as the same charge, so a retried request never charges
 * twice. {@link LocalPaymentProvider} is the local stack's; a real one wraps a payment provider's API.
 */
public interface PaymentProvider {

    /** The name stored with each payment. */
    String name();

    /**
     * @return approved with the provider's reference, or declined with a reason for the log
     * @throws dev.seckill.failure.DependencyUnavailable when the provider cannot be reached or does not answer
     */
    Charge charge(ChargeRequest request);

    /** Gives back a charge the order could not keep (the expiry won the race). */
    void refund(String reference);
}
