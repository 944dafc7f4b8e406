package dev.seckill.check;

import java.util.List;

/**
 * One broken promise of docs/invariants.md found in a sale, with the operations whose answers it involves.
 *
 * @param userId     the buyer concerned, null when the violation is the sale's (a stock equation)
 * @param orderId    the order concerned, null likewise
 * @param requestIds the {@code X-Request-Id}s of the operations involved (empty when no answer is)
 */
public record Violation(Kind kind, long saleId, Long userId, String orderId, String detail,
                        List<String> requestIds) {

    /** What was broken; docs/chaos.md ("The checker") says what each means. */
    public enum Kind {
        /** More live orders than units, or Redis stock below zero. */
        OVERSELL,
        /** A user with two rows in a sale, or answered two different order ids in it. */
        SECOND_ORDER,
        /** A 202, or a 503 naming an order, whose order has no row (of that user). */
        LOST_ORDER,
        /** An answer the final state contradicts: ALREADY_PURCHASED naming another order, a 200 PAID not paid. */
        ANSWER_MISMATCH,
        /**
         * A row no answer explains: no 202 or 503 names it, and no 503 without an order id or unanswered purchase of
         * its buyer came before any answer that named it (the buyer heard only 410, 429 and the like, or never
         * clicked). docs/invariants.md (6) allows a row only after no answer or a 503 after Kafka's ack.
         */
        ROW_WITHOUT_ANSWER,
        /**
         * A 410 SOLD_OUT answered while a unit was provably left: fewer orders minted and purchases answered 503 or
         * not at all by its end than the sale had units ({@link RefusalChecks}).
         */
        SOLD_OUT_WITH_STOCK,
        /** An order with a payment that expired: paid and expired both. */
        PAID_AND_EXPIRED,
        /** A PAID order without its payment row, or a payment for an order still CONFIRMED. */
        PAYMENT_MISMATCH,
        /** A unit given back twice, or given back while its order still holds it. */
        UNIT_RETURNED_TWICE,
        /** An expired order whose unit Redis never got back. */
        UNIT_NOT_RETURNED,
        /** A stock equation or the buyer marks against the rows do not add up. */
        CONSERVATION,
        /** A sale of the history that the final state lacks, or that MySQL has no row of: nothing to check against. */
        SALE_MISSING,
        /** An answer the OpenAPI document does not describe: a status, header, body or code it does not list. */
        CONTRACT
    }

    /** One line for the runner's output. */
    public String line() {
        return kind + " sale " + saleId + (userId == null ? "" : " user " + userId)
                + (orderId == null ? "" : " order " + orderId) + ": " + detail
                + (requestIds.isEmpty() ? "" : " " + Findings.shortList(requestIds));
    }
}
