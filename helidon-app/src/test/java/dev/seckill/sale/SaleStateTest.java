package dev.seckill.sale;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SaleStateTest {

    private final Instant start = Instant.parse("2030-01-01T10:00:00Z");
    private final Sale sale = new Sale(1, "s", 1, 10, start, start.plusSeconds(60));

    @Test
    void stateFollowsTheClockAndTheRemainingStock() {
        assertEquals(SaleState.UPCOMING, SaleState.of(sale, start.minusMillis(1), 10L));
        assertEquals(SaleState.ACTIVE, SaleState.of(sale, start, 10L));
        assertEquals(SaleState.ACTIVE, SaleState.of(sale, start, null));
        assertEquals(SaleState.SOLD_OUT, SaleState.of(sale, start.plusSeconds(1), 0L));
        assertEquals(SaleState.ENDED, SaleState.of(sale, start.plusSeconds(60), 3L));
    }
}
