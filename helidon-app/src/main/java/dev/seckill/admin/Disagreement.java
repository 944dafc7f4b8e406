package dev.seckill.admin;

/**
 * One way a sale's Redis and database disagree, as the stats name it ({@code GET /admin/sales/{id}/stats}).
 *
 * @param userId  the buyer it concerns, or null for a disagreement of the whole sale
 * @param orderId the order it concerns (the row's when there is one, else the mark's), or null
 * @param detail  what was found, in words
 */
public record Disagreement(Kind kind, Long userId, Long orderId, String detail) {

    /** What disagrees; the order is the order in which {@link Conservation} checks. */
    public enum Kind {
        /** The writer has events left to write: marks without rows are expected until it catches up. */
        WRITER_BEHIND,
        /** Expired orders still owe Redis their unit (the expiry's next pass pays it). */
        UNITS_OWED,
        /** Redis has no stock key for a sale that is not archived: lost, or never preheated. */
        REDIS_STOCK_MISSING,
        /** stock_total differs from Redis remaining plus the live rows. */
        REDIS_STOCK,
        /** The database's stock column differs from stock_total minus the live rows. */
        DB_STOCK,
        /** A buyer mark in Redis whose user has no row. */
        MARK_WITHOUT_ROW,
        /** A row whose user has no buyer mark in Redis. */
        ROW_WITHOUT_MARK,
        /** A buyer mark that names another order than the user's row. */
        MARK_NAMES_OTHER_ORDER,
        /** An order id in the returned set that is no EXPIRED row: a unit came back that was never given up. */
        RETURNED_NOT_EXPIRED,
        /** An EXPIRED row whose order id the returned set lacks: its unit is not counted back in Redis. */
        EXPIRED_NOT_RETURNED
    }

    static Disagreement ofSale(Kind kind, String detail) {
        return new Disagreement(kind, null, null, detail);
    }
}
