package dev.seckill.event;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A won purchase on its way to the database: the type the service and the batch writer exchange.
 *
 * <p>Wire form (topic {@value #TOPIC}, keyed by sale id so one sale stays on one partition):
 * {@code {"orderId":"...","saleId":1,"userId":2,"priceCents":100,"createdAt":1700000000000,"v":1}}.
 * {@code orderId} travels as a string because it is a 64-bit id and JavaScript clients lose precision past 2^53;
 * {@code createdAt} is epoch milliseconds.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record OrderEvent(String orderId, long saleId, long userId, long priceCents, long createdAt, int v) {

    public static final String TOPIC = "seckill.orders";
    public static final String DEAD_LETTER_TOPIC = "seckill.orders.DLT";
    public static final int VERSION = 1;
    /**
     * Record header with the X-Request-Id of the purchase that made the event (UTF-8), so the writer's log line of
     * the row names the same request as the edge's and the service's (docs/kafka.md). Optional: not in the value,
     * which stays the order itself; a record without it is written all the same.
     */
    public static final String REQUEST_ID_HEADER = "seckill.request-id";

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES, true);

    public OrderEvent {
        Objects.requireNonNull(orderId, "orderId");
    }

    public static OrderEvent of(long orderId, long saleId, long userId, long priceCents, long createdAt) {
        return new OrderEvent(Long.toString(orderId), saleId, userId, priceCents, createdAt, VERSION);
    }

    /** The order id as the number it is. */
    public long orderIdValue() {
        return Long.parseLong(orderId);
    }

    /** Kafka record key: the sale id, so a sale's orders keep their order on one partition. */
    public String key() {
        return Long.toString(saleId);
    }

    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("failed to serialize order event: " + e.getMessage(), e);
        }
    }

    /**
     * Parses and validates an event.
     *
     * @throws InvalidEventException when the bytes are not a valid version-1 event (the writer dead-letters those)
     */
    public static OrderEvent fromJson(byte[] json) {
        if (json == null) {
            throw new InvalidEventException("empty record");
        }
        OrderEvent e;
        try {
            e = JSON.readValue(new String(json, StandardCharsets.UTF_8), OrderEvent.class);
        } catch (Exception ex) {
            throw new InvalidEventException("unparseable JSON: " + ex.getMessage().lines().findFirst().orElse(""));
        }
        if (e.v != VERSION) {
            throw new InvalidEventException("unsupported event version " + e.v);
        }
        try {
            if (e.orderIdValue() <= 0) {
                throw new InvalidEventException("orderId must be positive");
            }
        } catch (NumberFormatException nfe) {
            throw new InvalidEventException("orderId is not a number");
        }
        if (e.saleId <= 0 || e.userId <= 0 || e.priceCents < 0 || e.createdAt <= 0) {
            throw new InvalidEventException("saleId, userId, createdAt must be positive and priceCents >= 0");
        }
        return e;
    }

    /** A record that can never become an order. */
    public static final class InvalidEventException extends RuntimeException {
        public InvalidEventException(String reason) {
            super(reason);
        }
    }
}
