package dev.seckill.order;

/** A sale's written orders by state. */
public record OrderCounts(long confirmed, long paid, long expired) {

    /** Every row, whatever its state. */
    public long total() {
        return confirmed + paid + expired;
    }

    /** Rows that hold a unit: CONFIRMED and PAID. */
    public long live() {
        return confirmed + paid;
    }
}
