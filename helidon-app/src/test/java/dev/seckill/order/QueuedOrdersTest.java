package dev.seckill.order;

import dev.seckill.sale.FakeSales;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QueuedOrdersTest {

    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Sale RUNNING = new Sale(1, "a", 1, 5, NOW.minusSeconds(60), NOW.plusSeconds(60));
    private static final Sale ENDED_AN_HOUR_AGO = new Sale(2, "b", 1, 5, NOW.minusSeconds(7200), NOW.minusSeconds(3600));
    private static final Sale ENDED_TWO_DAYS_AGO = new Sale(3, "c", 1, 5, NOW.minus(Duration.ofDays(3)),
            NOW.minus(Duration.ofDays(2)));

    private final Map<String, String> marks = new HashMap<>();
    private final QueuedOrders queued = new QueuedOrders(
            new FakeSales().add(RUNNING).add(ENDED_AN_HOUR_AGO).add(ENDED_TWO_DAYS_AGO),
            (sale, user) -> Optional.ofNullable(marks.get(sale + ":" + user)), Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void anOrderIdRecordedForItsUserIsFoundInItsSale() {
        marks.put("1:7", "100");
        marks.put("2:7", "200");
        assertEquals(Optional.of(RUNNING), queued.saleOf(100, 7));
        assertEquals(Optional.of(ENDED_AN_HOUR_AGO), queued.saleOf(200, 7), "a sale that ended recently still counts");
    }

    @Test
    void anotherUsersOrderOrAnotherOrderOfTheUserIsNotFound() {
        marks.put("1:7", "100");
        assertEquals(Optional.empty(), queued.saleOf(100, 8), "only the owner finds it");
        assertEquals(Optional.empty(), queued.saleOf(101, 7));
    }

    @Test
    void salesThatEndedMoreThanADayAgoAreNotSearched() {
        marks.put("3:7", "300");
        assertEquals(Optional.empty(), queued.saleOf(300, 7));
    }
}
