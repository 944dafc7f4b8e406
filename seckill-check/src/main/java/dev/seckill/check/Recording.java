package dev.seckill.check;

/**
 * Whether a history holds every attempt its client made. A row no recorded answer explains is held against its
 * buyer's answers only when it does: a client that drops what is in flight at its deadline (the bench's load client)
 * made attempts whose answers are unknown, not absent, and one of them may have written the row.
 */
public enum Recording {
    /** Every attempt is in the history, an unanswered one as status 0 (the chaos workload, the fault tests). */
    EVERY_ATTEMPT,
    /**
     * Attempts still in flight at the client's deadline were dropped unrecorded: a row no recorded answer explains
     * is the exception {@link Excused.Kind#WRITTEN_AFTER_UNRECORDED}, counted and listed, not a violation.
     */
    IN_FLIGHT_DROPPED
}
