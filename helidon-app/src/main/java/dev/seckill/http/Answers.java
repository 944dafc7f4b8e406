package dev.seckill.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.failure.InvalidInput;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

import java.util.LinkedHashMap;
import java.util.Map;

/** Writes JSON answers. Every error body has a stable upper-case {@code code} and a {@code message} for people. */
public final class Answers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Answers() {
    }

    /**
     * Sends {@code body} as JSON. Serialised here rather than by a media writer: the answer is JSON whatever the
     * client's Accept header asks for (a browser's {@code Accept: text/html} must not turn it into an error).
     */
    public static void json(ServerResponse res, Status status, Object body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("failed to serialise an answer: " + e.getMessage(), e);
        }
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.send(bytes);
    }

    /** An error body: {@code {"code":..., "message":..., extra...}}. */
    public static Map<String, Object> error(String code, String message) {
        return body("code", code, "message", message);
    }

    public static void error(ServerResponse res, Status status, String code, String message) {
        json(res, status, error(code, message));
    }

    /** A JSON object body with its fields in the given order: {@code body("code", "QUEUED", "orderId", id)}. */
    public static Map<String, Object> body(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** Parses a positive id from a path parameter; 400 naming the field when it is not a number. */
    public static long id(String raw, String field) {
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new InvalidInput(field, field + " must be an integer");
        }
    }
}
