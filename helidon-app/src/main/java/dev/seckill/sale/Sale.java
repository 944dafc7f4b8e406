package dev.seckill.sale;

import dev.seckill.line.WaitingRoom;
import dev.seckill.protection.SaleProtection;

import java.time.Instant;

/**
 * A sale's fixed facts (they never change after creation, so instances cache them freely).
 *
 * @param payWindowSeconds how long a confirmed order may stay unpaid before it expires and its unit goes back
 * @param protection how the sale is guarded against scripted buyers: none, a path, or a challenge
 * @param waitingRoom the sale's line, or null when it has none (buyers then purchase directly)
 */
public record Sale(long id, String name, long priceCents, int stockTotal, Instant startsAt, Instant endsAt,
                   int payWindowSeconds, SaleProtection protection, WaitingRoom waitingRoom) {

    /** The window a sale gets when its creator names none: fifteen minutes, as shops commonly give. */
    public static final int DEFAULT_PAY_WINDOW_SECONDS = 900;

    /** An unprotected sale with the default payment window. */
    public Sale(long id, String name, long priceCents, int stockTotal, Instant startsAt, Instant endsAt) {
        this(id, name, priceCents, stockTotal, startsAt, endsAt, DEFAULT_PAY_WINDOW_SECONDS, SaleProtection.NONE);
    }

    /** A sale without a waiting room. */
    public Sale(long id, String name, long priceCents, int stockTotal, Instant startsAt, Instant endsAt,
                int payWindowSeconds, SaleProtection protection) {
        this(id, name, priceCents, stockTotal, startsAt, endsAt, payWindowSeconds, protection, null);
    }

    /** An unprotected sale: the purchase route without a path or a challenge. */
    public Sale(long id, String name, long priceCents, int stockTotal, Instant startsAt, Instant endsAt,
                int payWindowSeconds) {
        this(id, name, priceCents, stockTotal, startsAt, endsAt, payWindowSeconds, SaleProtection.NONE);
    }
}
