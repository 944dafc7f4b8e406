package dev.seckill.testkit;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The repository's AsyncAPI document, read by the validator every event test uses. */
class EventContractTest {

    private static final String TOPIC = "seckill.order-events";
    private final EventContract contract = EventContract.get();

    private static String event(String type, String state, String requestId) {
        return "{\"eventId\":\"42:" + type + "\",\"type\":\"" + type + "\",\"orderId\":\"42\",\"saleId\":7,"
                + "\"userId\":9,\"state\":\"" + state + "\",\"occurredAt\":\"2026-01-01T00:00:00.123Z\","
                + "\"requestId\":" + (requestId == null ? "null" : "\"" + requestId + "\"") + ",\"v\":1}";
    }

    @Test
    void eachKindOfChangeAsTheRelayWritesItMatches() {
        assertDoesNotThrow(() -> contract.verify(TOPIC, "42", event("CONFIRMED", "CONFIRMED", "abc-1")));
        assertDoesNotThrow(() -> contract.verify(TOPIC, "42", event("PAID", "PAID", "abc-2")));
        assertDoesNotThrow(() -> contract.verify(TOPIC, "42", event("EXPIRED", "EXPIRED", null)));
        assertDoesNotThrow(() -> contract.verify(TOPIC, "42", event("UNIT_RETURNED", "EXPIRED", null)));
    }

    @Test
    void aStateThatDoesNotFollowFromTheTypeIsRefused() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> contract.verify(TOPIC, "42", event("UNIT_RETURNED", "PAID", null)));
        assertTrue(e.getMessage().contains("payload schema"), e.getMessage());
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, "42", event("EXPIRED", "EXPIRED", "req")),
                "the expiry's changes carry no request id");
    }

    @Test
    void aMissingOrUnknownFieldIsRefused() {
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, "42",
                event("PAID", "PAID", "r").replace("\"saleId\":7,", "")));
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, "42",
                event("PAID", "PAID", "r").replace("\"v\":1", "\"v\":1,\"extra\":true")));
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, "42",
                event("PAID", "PAID", "r").replace("\"orderId\":\"42\"", "\"orderId\":42")));
    }

    @Test
    void aKeyThatIsNoOrderIdOrATopicTheDocumentLacksIsRefused() {
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, "sale-7", event("PAID", "PAID", "r")));
        assertThrows(AssertionError.class, () -> contract.verify(TOPIC, null, event("PAID", "PAID", "r")));
        AssertionError e = assertThrows(AssertionError.class,
                () -> contract.verify("seckill.orders", "7", event("PAID", "PAID", "r")));
        assertTrue(e.getMessage().contains("no channel"), e.getMessage());
    }
}
