package dev.seckill.purchase;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderIdsTest {

    private final Instant t = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void idsWithinOneMillisecondAreDistinctAndIncreasing() {
        OrderIds ids = new OrderIds(Clock.fixed(t, ZoneOffset.UTC), 5);
        Set<Long> seen = new HashSet<>();
        long last = 0;
        for (int i = 0; i < 10_000; i++) {
            long id = ids.next();
            assertTrue(id > last);
            assertTrue(seen.add(id));
            last = id;
        }
    }

    @Test
    void twoNodesNeverDrawTheSameIdAtTheSameTime() {
        Clock c = Clock.fixed(t, ZoneOffset.UTC);
        assertNotEquals(new OrderIds(c, 1).next(), new OrderIds(c, 2).next());
    }

    @Test
    void idsSortByCreationTimeAndEncodeIt() {
        long early = new OrderIds(Clock.fixed(t, ZoneOffset.UTC), 1023).next();
        long late = new OrderIds(Clock.fixed(t.plusMillis(1), ZoneOffset.UTC), 0).next();
        assertTrue(late > early);
        assertEquals(t, OrderIds.createdAt(early));
    }
}
