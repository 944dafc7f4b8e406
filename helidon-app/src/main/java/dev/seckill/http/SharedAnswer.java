package dev.seckill.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.http.Status;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * An answer the service and the edge both give, its status, code and message read from the one table both read
 * ({@code messages/answers.json}, on the classpath as {@code messages/answers.json}; the edge's errors.lua loads the
 * same file at start): each is written once, so the edge's copy of an answer cannot drift from the service's.
 *
 * @param retryAfter seconds for {@code Retry-After}, 0 when the answer has none
 */
public record SharedAnswer(Status status, String code, String message, int retryAfter) {

    private static final Map<String, JsonNode> TABLE = read();

    public static final SharedAnswer NOT_FOUND = of("not_found");
    public static final SharedAnswer METHOD_NOT_ALLOWED = of("method_not_allowed");
    public static final SharedAnswer TOO_LARGE = of("too_large");
    public static final SharedAnswer BAD_REQUEST = of("bad_request");
    public static final SharedAnswer SALE_NOT_FOUND = of("sale_not_found");
    public static final SharedAnswer ORDER_NOT_FOUND = of("order_not_found");
    public static final SharedAnswer TICKET_INVALID = of("ticket_invalid");
    public static final SharedAnswer TICKET_EXPIRED = of("ticket_expired");
    public static final SharedAnswer NOT_ADMITTED = of("not_admitted");
    public static final SharedAnswer ADMISSION_LAPSED = of("admission_lapsed");
    public static final SharedAnswer SOLD_OUT = of("sold_out");
    public static final SharedAnswer SALE_ENDED = of("sale_ended");
    /** The service's alone (a purchase, a challenge or a path asked for before the start), written once here too. */
    public static final SharedAnswer NOT_STARTED = of("not_started");
    /** The service's own 503 when a dependency it needs (Redis, Kafka, MySQL) failed or its breaker is open. */
    public static final SharedAnswer DEPENDENCY_UNAVAILABLE = of("dependency_unavailable");
    /** The purchase's 503 while its unit is kept for an order Kafka has not acknowledged: {@code {orderId}} in it. */
    public static final SharedAnswer ORDER_KEPT = of("order_kept");

    /** The named answer of the table; fails the start when it is missing or incomplete. */
    static SharedAnswer of(String name) {
        JsonNode a = TABLE.get(name);
        if (a == null || !a.path("status").isInt() || !a.path("code").isTextual() || !a.path("message").isTextual()) {
            throw new IllegalStateException("messages/answers.json has no complete answer " + name);
        }
        return new SharedAnswer(Status.create(a.get("status").asInt()), a.get("code").asText(),
                a.get("message").asText(), a.path("retryAfter").asInt(0));
    }

    /** The message with each {@code {name}} replaced by its value: {@code message("orderId", id)}. */
    public String message(String name, Object value) {
        return message.replace("{" + name + "}", String.valueOf(value));
    }

    private static Map<String, JsonNode> read() {
        try (InputStream in = SharedAnswer.class.getResourceAsStream("/messages/answers.json")) {
            if (in == null) {
                throw new IllegalStateException("messages/answers.json is not on the classpath");
            }
            return new ObjectMapper().readValue(in, new com.fasterxml.jackson.core.type.TypeReference<>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read messages/answers.json", e);
        }
    }
}
