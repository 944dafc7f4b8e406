package dev.seckill.purchase;

/**
 * The bookkeeping of units taken but not yet settled: the record of an order whose send to Kafka failed (its unit
 * stays held for a resend), its removal once the order is in Kafka, and the return of a reservation's unit. The
 * purchase path, the {@link Resender} and reconcile keep it; {@link RedisUnitLedger} in the service, a fake in unit
 * tests.
 */
public interface UnitLedger {

    /**
     * Gives back the unit of {@code orderId} if it is still this buyer's and no send of it began at or after
     * {@code sentBeforeMillis} (idempotent); removes the buyer's unsent entry with it.
     *
     * @return the remaining stock after the undo, -1 when there was nothing to undo, -2 when the order was sent
     *         again since {@code sentBeforeMillis} (nothing changed)
     */
    long compensate(long saleId, long userId, long orderId, long sentBeforeMillis);

    /**
     * Records that the send of a reserved order, begun at {@code sentAtMillis}, failed: the unit stays held for a
     * resend. Nothing is recorded when the buyer's mark is no longer this order.
     *
     * @return true when recorded (the unit is held for this order), false when the buyer's mark is another order or,
     *         where replicas must confirm, none did in time (a failover could lose the record)
     */
    boolean unsent(long saleId, long userId, long orderId, long sentAtMillis);

    /** Forgets the buyer's unsent entry of {@code orderId}, now that the order is in Kafka or written. */
    void sent(long saleId, long userId, long orderId);
}
