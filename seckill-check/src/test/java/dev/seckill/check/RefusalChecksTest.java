package dev.seckill.check;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RefusalChecksTest {

    @Test
    void countsTheTimesAtOrBeforeAMomentTiesIncluded() {
        long[] times = {10, 20, 20, 20, 30};
        assertEquals(0, RefusalChecks.atOrBefore(times, 9));
        assertEquals(1, RefusalChecks.atOrBefore(times, 10));
        assertEquals(1, RefusalChecks.atOrBefore(times, 19));
        assertEquals(4, RefusalChecks.atOrBefore(times, 20));
        assertEquals(4, RefusalChecks.atOrBefore(times, 29));
        assertEquals(5, RefusalChecks.atOrBefore(times, 30));
        assertEquals(5, RefusalChecks.atOrBefore(times, Long.MAX_VALUE));
        assertEquals(0, RefusalChecks.atOrBefore(new long[0], 1));
    }
}
