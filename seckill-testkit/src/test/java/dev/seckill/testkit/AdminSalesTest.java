package dev.seckill.testkit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminSalesTest {

    private static final Instant START = Instant.parse("2030-01-01T10:00:00Z");

    @Test
    void aSaleBodyCarriesEveryFieldItWasGivenAsJson() {
        ObjectNode body = AdminSales.body("a \"quoted\", name").priceCents(4900).stock(2).startsAt(START)
                .endsAt(START.plusSeconds(600)).with("protection", "challenge").with("challengeBits", 12)
                .waitingRoom(60, 30).body();

        assertEquals("a \"quoted\", name", body.path("name").asText());
        assertEquals(4900, body.path("priceCents").asLong());
        assertEquals(2, body.path("stock").asLong());
        assertEquals("2030-01-01T10:00:00Z", body.path("startsAt").asText());
        assertEquals("2030-01-01T10:10:00Z", body.path("endsAt").asText());
        assertEquals("challenge", body.path("protection").asText());
        assertEquals(12, body.path("challengeBits").asInt());
        assertEquals(60, body.path("waitingRoom").path("prequeueSeconds").asInt());
        assertEquals(30, body.path("waitingRoom").path("admitSeconds").asInt());
        assertEquals(List.of("name", "priceCents", "stock", "startsAt", "endsAt", "protection", "challengeBits",
                "waitingRoom"), body.properties().stream().map(Map.Entry::getKey).toList());
    }

    @Test
    void aSaleWithNothingSaidIsAnOperatorsUsualRunningSale() {
        ObjectNode body = AdminSales.body("plain").body();

        assertEquals(1999, body.path("priceCents").asLong());
        assertEquals(1, body.path("stock").asLong());
        Instant starts = Instant.parse(body.path("startsAt").asText());
        Instant ends = Instant.parse(body.path("endsAt").asText());
        assertTrue(starts.isBefore(Instant.now()), "started already: " + starts);
        assertEquals(3601, ends.getEpochSecond() - starts.getEpochSecond());
    }

    @Test
    void aSaleThatIsOnlyABodyCannotBeSent() {
        assertThrows(IllegalStateException.class, () -> AdminSales.body("x").post());
    }
}
