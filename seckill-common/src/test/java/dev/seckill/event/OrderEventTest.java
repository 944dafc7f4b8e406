package dev.seckill.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderEventTest {

    @Test
    void roundTripsThroughJsonWithTheContractFieldNames() {
        OrderEvent e = OrderEvent.of(9_007_199_254_740_993L, 7, 42, 1999, 1_700_000_000_000L);
        String json = new String(e.toJson(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"orderId\":\"9007199254740993\""), json);
        assertTrue(json.contains("\"v\":1"), json);
        assertEquals(e, OrderEvent.fromJson(e.toJson()));
        assertEquals("7", e.key());
    }

    @Test
    void rejectsGarbageMissingFieldsAndOtherVersions() {
        assertThrows(OrderEvent.InvalidEventException.class, () -> OrderEvent.fromJson("{not json".getBytes()));
        assertThrows(OrderEvent.InvalidEventException.class, () -> OrderEvent.fromJson(null));
        assertThrows(OrderEvent.InvalidEventException.class,
                () -> OrderEvent.fromJson("{\"orderId\":\"1\",\"saleId\":1,\"v\":1}".getBytes()));
        assertThrows(OrderEvent.InvalidEventException.class, () -> OrderEvent.fromJson(
                "{\"orderId\":\"1\",\"saleId\":1,\"userId\":1,\"priceCents\":1,\"createdAt\":1,\"v\":2}".getBytes()));
        assertThrows(OrderEvent.InvalidEventException.class, () -> OrderEvent.fromJson(
                "{\"orderId\":\"x\",\"saleId\":1,\"userId\":1,\"priceCents\":1,\"createdAt\":1,\"v\":1}".getBytes()));
    }
}
