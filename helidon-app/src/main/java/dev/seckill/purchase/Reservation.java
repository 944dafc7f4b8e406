package dev.seckill.purchase;

/**
 * The script's answer. {@code data} depends on the outcome: remaining stock (QUEUED), milliseconds to start
 * (NOT_STARTED) or to the next token (RATE_LIMITED); {@code existingOrderId} is set for ALREADY_PURCHASED.
 */
public record Reservation(PurchaseOutcome outcome, long data, String existingOrderId) {
}
