package dev.seckill.sale;

import java.time.Instant;

/** What a shopper sees of a sale. */
public enum SaleState {
    UPCOMING, ACTIVE, SOLD_OUT, ENDED;

    /** The state at {@code now}; {@code remaining} may be null when Redis cannot be read. */
    public static SaleState of(Sale sale, Instant now, Long remaining) {
        if (now.isBefore(sale.startsAt())) {
            return UPCOMING;
        }
        if (!now.isBefore(sale.endsAt())) {
            return ENDED;
        }
        return remaining != null && remaining <= 0 ? SOLD_OUT : ACTIVE;
    }
}
