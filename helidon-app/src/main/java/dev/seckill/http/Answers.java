package dev.seckill.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.identity.TokenRefusal;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes JSON answers. Every error body has a stable upper-case {@code code}, a fixed {@code message} for people
 * (never an exception's or a driver's text) and the {@code requestId} its log lines carry.
 */
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

    /** An error body: {@code {"code":..., "message":..., extra..., "requestId":...}}. */
    public static Map<String, Object> error(ServerRequest req, String code, String message, Object... extra) {
        Map<String, Object> m = body("code", code, "message", message);
        m.putAll(body(extra));
        m.put("requestId", RequestIds.of(req));
        return m;
    }

    public static void error(ServerRequest req, ServerResponse res, Status status, String code, String message) {
        json(res, status, error(req, code, message));
    }

    /** The shared answer {@code a} (its status, code and message) with the request id. */
    public static void error(ServerRequest req, ServerResponse res, SharedAnswer a) {
        json(res, a.status(), error(req, a.code(), a.message()));
    }

    /** 401 {@code UNAUTHENTICATED} with the stable {@code reason} the token was refused for. */
    public static void unauthenticated(ServerRequest req, ServerResponse res, TokenRefusal reason) {
        json(res, Status.UNAUTHORIZED_401, error(req, "UNAUTHENTICATED", reason.message(), "reason", reason.name()));
    }

    /** A JSON object body with its fields in the given order: {@code body("code", "QUEUED", "orderId", id)}. */
    public static Map<String, Object> body(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
