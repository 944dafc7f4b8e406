package dev.seckill.check;

import java.util.List;

/**
 * A documented exception: an outcome that looks wrong from the client's side but that docs/invariants.md (section 6)
 * and docs/failures.md allow, counted and listed so a run shows how often it happened, never a violation.
 *
 * @param requestIds the operations that explain it (the 503s, the unanswered purchases)
 */
public record Excused(Kind kind, long saleId, long userId, String orderId, String detail, List<String> requestIds) {

    public enum Kind {
        /** A 503 without an order id, and the user's order was written anyway (the service died after Kafka's ack). */
        WRITTEN_AFTER_503,
        /** A purchase that got no answer at all, and the user's order was written. */
        WRITTEN_AFTER_NO_ANSWER,
        /**
         * A row no recorded answer explains, in a history whose client dropped its attempts in flight at its deadline
         * unrecorded ({@link Recording#IN_FLIGHT_DROPPED}): one of those may have written it, so its answer is unknown.
         */
        WRITTEN_AFTER_UNRECORDED
    }

    public String line() {
        return kind + " sale " + saleId + " user " + userId + " order " + orderId + ": " + detail
                + (requestIds.isEmpty() ? "" : " " + Findings.shortList(requestIds));
    }
}
