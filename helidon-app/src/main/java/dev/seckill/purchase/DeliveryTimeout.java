package dev.seckill.purchase;

import java.time.Duration;

/**
 * The producer's delivery timeout ({@code kafka.delivery-timeout-ms}) and the one rule built on it: once
 * {@link #settled()} has passed since a send, that send has landed in Kafka or failed for good. The publisher waits
 * that long at most for an acknowledgement, and reconcile releases a reservation without an order only when it is
 * older than that (an event a dying service did hand to Kafka must have landed first).
 */
public record DeliveryTimeout(Duration value) {

    /** The producer fails a send itself at the timeout; the margin only covers a hang or a late callback. */
    private static final Duration MARGIN = Duration.ofSeconds(1);

    public DeliveryTimeout {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("kafka.delivery-timeout-ms must be positive");
        }
    }

    /** The time after which a send has been decided: acknowledged, or failed (its unit then kept for a resend). */
    public Duration settled() {
        return value.plus(MARGIN);
    }

    /** The timeout as Kafka's {@code delivery.timeout.ms} property takes it. */
    int millis() {
        return Math.toIntExact(value.toMillis());
    }
}
