package dev.seckill.admin;

import dev.seckill.order.OrderCounts;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conservation invariant as the stats judge it. */
class SaleStatsTest {

    /** Stock 10, no order expired: every order is CONFIRMED. */
    private static SaleStats stats(long dbStock, Long remaining, long buyers, long orders, long lag) {
        return new SaleStats(1, 10, dbStock, remaining, buyers, 0, new OrderCounts(orders, 0, 0), 0, lag);
    }

    /** Stock 10 with 6 orders written: 2 CONFIRMED, 2 PAID, 2 EXPIRED (their units back in Redis and the DB). */
    private static SaleStats withExpired(long dbStock, long remaining, long returned, long owed) {
        return new SaleStats(1, 10, dbStock, remaining, 6, returned, new OrderCounts(2, 2, 2), owed, 0);
    }

    @Test
    void aSaleWhoseUnitsAreAllInRedisOrWrittenIsConsistent() {
        assertTrue(stats(7, 7L, 3, 3, 0).consistent());
        assertTrue(stats(10, 10L, 0, 0, 0).consistent(), "nothing sold yet");
        assertTrue(stats(0, 0L, 10, 10, 0).consistent(), "sold out and all written");
    }

    @Test
    void nothingIsConsistentWhileTheWriterIsBehind() {
        assertFalse(stats(7, 7L, 3, 3, 1).consistent());
    }

    @Test
    void aUnitNeitherInRedisNorWrittenIsInconsistent() {
        assertFalse(stats(7, 6L, 4, 3, 0).consistent(), "a reservation that never became an order");
    }

    @Test
    void aBuyerWithoutAWrittenOrderOrAnOrderWithoutABuyerIsInconsistent() {
        assertFalse(stats(7, 7L, 4, 3, 0).consistent());
        assertFalse(stats(7, 7L, 2, 3, 0).consistent());
    }

    @Test
    void aDatabaseStockThatDisagreesWithItsOrdersIsInconsistent() {
        assertFalse(stats(9, 7L, 3, 3, 0).consistent());
    }

    @Test
    void missingRedisStockIsNeverConsistent() {
        assertFalse(stats(10, null, 0, 0, 0).consistent());
    }

    @Test
    void expiredOrdersHoldNoUnitAndKeepTheirBuyerMark() {
        assertTrue(withExpired(6, 6, 2, 0).consistent(), "stock 10 = 6 remaining + 4 live orders");
        assertFalse(withExpired(6, 4, 0, 0).consistent(), "units of expired orders not back in Redis");
        assertFalse(withExpired(4, 6, 2, 0).consistent(), "units of expired orders not back in the DB stock");
        assertFalse(withExpired(6, 7, 3, 0).consistent(), "a unit returned twice");
    }

    @Test
    void nothingIsConsistentWhileExpiredOrdersStillOweRedisTheirUnit() {
        assertFalse(withExpired(6, 5, 1, 1).consistent());
    }
}
