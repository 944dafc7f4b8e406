package dev.seckill.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderStateEventTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:12.345Z");

    @Test
    void theWireFormNamesTheChangeTheOrderAndTheRequest() {
        OrderStateEvent e = OrderStateEvent.of(OrderStateEvent.Type.PAID, 123456789012345678L, 7, 42, AT, "pay-1");
        assertEquals("{\"eventId\":\"123456789012345678:PAID\",\"type\":\"PAID\",\"orderId\":\"123456789012345678\","
                + "\"saleId\":7,\"userId\":42,\"state\":\"PAID\",\"occurredAt\":\"2026-01-01T00:00:12.345Z\","
                + "\"requestId\":\"pay-1\",\"v\":1}", new String(e.toJson(), StandardCharsets.UTF_8));
        assertEquals(e, OrderStateEvent.fromJson(e.toJson()));
        assertEquals("123456789012345678", e.key());
    }

    @Test
    void aReturnedUnitLeavesTheOrderExpiredAndTheExpiryNamesNoRequest() {
        OrderStateEvent e = OrderStateEvent.of(OrderStateEvent.Type.UNIT_RETURNED, 5, 7, 42, AT, null);
        assertEquals("EXPIRED", e.state());
        assertNull(e.requestId());
        assertTrue(new String(e.toJson(), StandardCharsets.UTF_8).contains("\"requestId\":null"));
    }

    @Test
    void theSameChangeAlwaysHasTheSameEventId() {
        assertEquals(OrderStateEvent.of(OrderStateEvent.Type.EXPIRED, 5, 7, 42, AT, null).eventId(),
                OrderStateEvent.of(OrderStateEvent.Type.EXPIRED, 5, 7, 42, AT.plusSeconds(1), null).eventId());
    }

    @Test
    void aRequestIdThatIsNoSafeTokenIsNotKept() {
        assertNull(OrderStateEvent.requestId(""));
        assertNull(OrderStateEvent.requestId("a".repeat(65)));
        assertNull(OrderStateEvent.requestId("evil\nheader"));
        assertEquals("abc-1.x_2", OrderStateEvent.requestId("abc-1.x_2"));
    }
}
