package dev.seckill.expiry;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The database side of the expiry ({@link LapsedOrderRepository}; a fake in unit tests). */
public interface LapsedOrders {

    /** Sales that have CONFIRMED orders, with their payment window in seconds. */
    Map<Long, Integer> salesWithConfirmedOrders();

    /**
     * In one transaction: up to {@code limit} of the sale's CONFIRMED orders whose payBy has passed on the database's
     * clock become EXPIRED, their units go back to the sale's DB stock, and one unit_return row each is written.
     * Orders another transaction holds (a pay in progress, another instance's expiry) are skipped, not waited for.
     *
     * @return the orders this call expired (each exactly once, whatever else runs)
     */
    List<LapsedOrder> expire(long saleId, int payWindowSeconds, int limit);

    /** unit_return rows, oldest first: units that expired orders still owe to Redis. */
    List<LapsedOrder> pendingReturns(int limit);

    /** Deletes the unit_return rows of orders whose release.lua has answered. */
    void settled(Collection<Long> orderIds);
}
