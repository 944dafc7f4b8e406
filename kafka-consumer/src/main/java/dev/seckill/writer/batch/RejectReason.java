package dev.seckill.writer.batch;

/**
 * Why a record can never become an order row. The name is the stable code carried in the dead-letter header;
 * operators and tools act on it, the detail text next to it is for people.
 */
public enum RejectReason {
    /** Not a valid version-1 order event (bad JSON, missing field, unsupported version). */
    INVALID_EVENT,
    /** The event names a sale the database does not have. */
    UNKNOWN_SALE,
    /** The order id already belongs to a different order, or the user already has another order in this sale. */
    ORDER_CONFLICT,
    /** Writing it would take the sale's DB stock below zero: an invariant breach between Redis and the DB. */
    STOCK_GUARD
}
