package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;

/**
 * A unit was reserved, but fewer replicas than {@code redis.replica-acks} confirmed it in time: a failover now could
 * lose it and sell it again. The purchase gives the unit back and answers 503 (it is a dependency failure: the
 * shard's replicas are missing or behind), so no 202 rests on a reservation only the master holds.
 */
public final class ReservationNotReplicated extends DependencyUnavailable {

    /** @param why what went wrong, for the log */
    public ReservationNotReplicated(long saleId, long orderId, String why) {
        super("the reservation of order " + orderId + " (sale " + saleId + ") is not on its replicas: " + why);
    }
}
