package dev.seckill.admin;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The conservation invariant as the stats judge it. */
class SaleStatsTest {

    /** Stock 10: 3 sold and written, 7 left, writer caught up. */
    private static SaleStats stats(long dbStock, Long remaining, long buyers, long orders, long lag) {
        return new SaleStats(1, 10, dbStock, remaining, buyers, orders, lag);
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
}
