package dev.seckill.order;

/** What a pay request came to; {@link OrderService} maps each to one answer. */
public sealed interface PayOutcome {

    /** The order is paid (by this request, or before it: a repeat answers the same). */
    record Paid(Order order, PaymentRecord payment) implements PayOutcome {
    }

    /** Still QUEUED: the row is not written yet, so there is nothing to pay; retry shortly. */
    record NotConfirmed() implements PayOutcome {
    }

    /** The payment window passed: the order expired, or will at the expiry's next pass. */
    record Expired() implements PayOutcome {
    }

    /** No such order of this user. */
    record NotFound() implements PayOutcome {
    }

    /** The provider refused the charge; the order stays CONFIRMED and may be paid again within its window. */
    record Declined() implements PayOutcome {
    }
}
