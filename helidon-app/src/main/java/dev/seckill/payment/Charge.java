package dev.seckill.payment;

/** A provider's answer to a charge. */
public sealed interface Charge {

    /** The money is taken; {@code reference} names the charge at the provider (for refunds and receipts). */
    record Approved(String reference) implements Charge {
    }

    /** The provider refused (card declined, limits); {@code reason} is for the log, never for clients. */
    record Declined(String reason) implements Charge {
    }
}
