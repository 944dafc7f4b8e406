package dev.seckill.order;

/**
 * Where an order is (docs/contract.md, orders): QUEUED (the unit is reserved in Redis and the event is in Kafka)
 * → CONFIRMED (the writer wrote the row) → PAID, or EXPIRED when the sale's payment window passed unpaid. QUEUED is
 * never stored: it is what an order is before it has a row.
 */
public enum OrderState {
    QUEUED, CONFIRMED, PAID, EXPIRED;

    /** True while the order holds a unit of the sale (everything but EXPIRED). */
    public boolean live() {
        return this != EXPIRED;
    }
}
