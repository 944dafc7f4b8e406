package dev.seckill.failure;

/**
 * A purchase whose unit was taken but whose order Kafka did not acknowledge: it is unavailable for now, yet not
 * "nothing held". The unit is kept for this order, which is sent again by itself, so the answer names it: the buyer
 * learns that the order is theirs and can follow it, instead of hearing the 503 that promises nothing is held.
 */
public final class OrderKept extends DependencyUnavailable {

    private final String orderId;

    public OrderKept(String orderId, DependencyUnavailable sendFailure) {
        super("order " + orderId + " keeps its unit; its send failed: " + sendFailure.getMessage(), sendFailure);
        this.orderId = orderId;
    }

    /** The order that holds the buyer's unit. */
    public String orderId() {
        return orderId;
    }
}
