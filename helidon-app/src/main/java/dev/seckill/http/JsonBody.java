package dev.seckill.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.failure.InvalidInput;
import io.helidon.webserver.http.ServerRequest;

/** Reads a request body as JSON whatever its Content-Type says; anything unreadable is a 400 on {@code body}. */
public final class JsonBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonBody() {
    }

    /** The body as a JSON object, or null when there is no body. */
    public static JsonNode read(ServerRequest req, int maxBytes) {
        if (!req.content().hasEntity()) {
            return null;
        }
        byte[] raw;
        try {
            raw = req.content().as(byte[].class);
        } catch (RuntimeException e) {
            // Broken framing (bad chunk sizes, a short body): the request is malformed, not the server.
            throw new InvalidInput("body", "body could not be read", e);
        }
        if (raw.length > maxBytes) {
            throw new InvalidInput("body", "body must be at most " + maxBytes + " bytes");
        }
        if (raw.length == 0) {
            return null;
        }
        JsonNode node;
        try {
            node = JSON.readTree(raw);
        } catch (Exception e) {
            throw new InvalidInput("body", "body must be a JSON object", e);
        }
        if (node == null || !node.isObject()) {
            throw new InvalidInput("body", "body must be a JSON object");
        }
        return node;
    }
}
