package dev.seckill.sale;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.failure.InvalidInput;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NewSaleTest {

    private final ObjectMapper json = new ObjectMapper();

    private String field(String body) throws Exception {
        return assertThrows(InvalidInput.class, () -> NewSale.from(json.readTree(body))).field();
    }

    @Test
    void aValidBodyParses() throws Exception {
        NewSale s = NewSale.from(json.readTree("{\"name\":\" Phone \",\"priceCents\":100,\"stock\":5,"
                + "\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-01T01:00:00Z\"}"));
        assertEquals("Phone", s.name());
        assertEquals(Instant.parse("2030-01-01T01:00:00Z"), s.endsAt());
    }

    @Test
    void eachBadFieldIsNamed() throws Exception {
        String ok = "\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-01T01:00:00Z\"";
        assertEquals("name", field("{\"priceCents\":1,\"stock\":1," + ok + "}"));
        assertEquals("priceCents", field("{\"name\":\"a\",\"priceCents\":\"1\",\"stock\":1," + ok + "}"));
        assertEquals("priceCents", field("{\"name\":\"a\",\"priceCents\":-1,\"stock\":1," + ok + "}"));
        assertEquals("stock", field("{\"name\":\"a\",\"priceCents\":1,\"stock\":1.5," + ok + "}"));
        assertEquals("stock", field("{\"name\":\"a\",\"priceCents\":1,\"stock\":99999999999," + ok + "}"));
        assertEquals("startsAt", field("{\"name\":\"a\",\"priceCents\":1,\"stock\":1,\"startsAt\":5,\"endsAt\":\"2030-01-01T01:00:00Z\"}"));
        assertEquals("endsAt", field("{\"name\":\"a\",\"priceCents\":1,\"stock\":1,\"startsAt\":\"2030-01-01T02:00:00Z\",\"endsAt\":\"2030-01-01T01:00:00Z\"}"));
        assertEquals("body", field("[1,2]"));
    }

    @Test
    void thePaymentWindowDefaultsToFifteenMinutesAndTakesAnyWholeSecondsFromOneUpToAWeek() throws Exception {
        String base = "{\"name\":\"a\",\"priceCents\":1,\"stock\":1,"
                + "\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-01T01:00:00Z\"";
        assertEquals(900, NewSale.from(json.readTree(base + "}")).payWindowSeconds());
        assertEquals(1, NewSale.from(json.readTree(base + ",\"payWindowSeconds\":1}")).payWindowSeconds());
        assertEquals(604800, NewSale.from(json.readTree(base + ",\"payWindowSeconds\":604800}")).payWindowSeconds());
        for (String bad : new String[]{"0", "-5", "1.5", "\"60\"", "null", "604801"}) {
            assertEquals("payWindowSeconds", field(base + ",\"payWindowSeconds\":" + bad + "}"), bad);
        }
    }
}
