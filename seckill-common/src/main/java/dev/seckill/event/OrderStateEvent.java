package dev.seckill.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A change of an order's state, as shops read it from topic {@value #TOPIC} (docs/asyncapi.yaml is its contract,
 * docs/shop.md how to consume it). Keyed by order id, so one order's events share a partition and keep their order.
 *
 * <p>Wire form: {@code {"eventId":"123:PAID","type":"PAID","orderId":"123","saleId":7,"userId":42,"state":"PAID",
 * "occurredAt":"2026-01-01T00:00:00.123Z","requestId":"abc","v":1}}. {@code orderId} is a string (a 64-bit id);
 * {@code requestId} is null for the changes no request makes (the expiry's). The event id is the same every time one
 * event is published, so a consumer drops the duplicates that at-least-once delivery brings by it.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OrderStateEvent(String eventId, Type type, String orderId, long saleId, long userId, String state,
                              String occurredAt, String requestId, int v) {

    public static final String TOPIC = "seckill.order-events";
    public static final int VERSION = 1;

    /** What happened to the order; each happens at most once per order, which makes (order, type) the event id. */
    public enum Type {
        /** The writer wrote the order's row: it holds its unit and may be paid until payBy. */
        CONFIRMED("CONFIRMED"),
        /** The shopper paid it; final. */
        PAID("PAID"),
        /** Its payment window passed unpaid; final. */
        EXPIRED("EXPIRED"),
        /** The expired order's unit was handed back to the sale's Redis stock; the order stays EXPIRED. */
        UNIT_RETURNED("EXPIRED");

        private final String state;

        Type(String state) {
            this.state = state;
        }

        /** The order's state after this change. */
        public String state() {
            return state;
        }
    }

    /** The request ids the service makes and the edge sets (RequestIds): anything else is not kept. */
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES, true);

    public OrderStateEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(orderId, "orderId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(occurredAt, "occurredAt");
    }

    public static OrderStateEvent of(Type type, long orderId, long saleId, long userId, Instant occurredAt,
                                     String requestId) {
        return new OrderStateEvent(eventId(orderId, type), type, Long.toString(orderId), saleId, userId, type.state(),
                occurredAt.toString(), requestId(requestId), VERSION);
    }

    /** The id every publication of this change carries. */
    public static String eventId(long orderId, Type type) {
        return orderId + ":" + type.name();
    }

    /** A request id as it may be stored and published: the same, or null when absent or not one we make. */
    public static String requestId(String raw) {
        return raw != null && REQUEST_ID.matcher(raw).matches() ? raw : null;
    }

    /** Kafka record key: the order id, so an order's events stay on one partition, in order. */
    public String key() {
        return orderId;
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("failed to serialize order state event: " + e.getMessage(), e);
        }
    }

    /** Parses an event (consumers, tests). */
    public static OrderStateEvent fromJson(byte[] json) {
        try {
            return JSON.readValue(json, OrderStateEvent.class);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not an order state event: " + e.getMessage(), e);
        }
    }
}
