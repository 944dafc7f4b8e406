package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;

/**
 * purchase.lua's answer was lost and so was the question whether it reserved (confirm.lua failed too): the buyer's
 * unit may be held under this attempt's order. The purchase answers 503 and notes the order for the resender
 * ({@link UnsentSales.Unrecorded}).
 */
public final class ReservationUnknown extends DependencyUnavailable {

    public ReservationUnknown(String message, Throwable cause) {
        super(message, cause);
    }
}
