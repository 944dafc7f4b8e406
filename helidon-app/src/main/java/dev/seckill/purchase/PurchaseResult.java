package dev.seckill.purchase;

/**
 * The outcome of one purchase attempt as the client will hear it. {@code orderId} is set for QUEUED and
 * ALREADY_PURCHASED; {@code waitMillis} for NOT_STARTED (until start) and RATE_LIMITED (until the next token).
 */
public record PurchaseResult(PurchaseMetrics.Answer answer, String orderId, long waitMillis) {

    static PurchaseResult of(PurchaseMetrics.Answer answer) {
        return new PurchaseResult(answer, null, 0);
    }
}
