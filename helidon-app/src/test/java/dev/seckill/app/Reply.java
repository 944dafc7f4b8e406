package dev.seckill.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.ApiContract;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.ClientRequestBase;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import java.util.Optional;

/**
 * An answer read whole from a test client: status, headers of interest, body text and its JSON; checked against the
 * OpenAPI document ({@link ApiContract}).
 */
public record Reply(int status, String body, io.helidon.http.ClientResponseHeaders headers) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sends the request (with the body, if any) and reads the answer. */
    public static Reply of(Http1ClientRequest request, String body) {
        try (Http1ClientResponse r = body == null ? request.request() : request.submit(body)) {
            Reply reply = new Reply(r.status().code(), r.as(String.class), r.headers());
            ApiContract.check(method(request), request.resolvedUri().path().rawPath(), reply.status(),
                    name -> reply.header(name).orElse(null), reply.body());
            return reply;
        }
    }

    /** The request's method: the interface does not expose it, its one implementation does. */
    private static String method(Http1ClientRequest request) {
        if (request instanceof ClientRequestBase<?, ?> r) {
            return r.method().text();
        }
        throw new IllegalStateException("cannot tell the method of " + request.getClass());
    }

    public static Reply of(Http1ClientRequest request) {
        return of(request, null);
    }

    public JsonNode json() {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + body, e);
        }
    }

    public String code() {
        return json().path("code").asText();
    }

    public Optional<String> header(String name) {
        return headers.first(HeaderNames.create(name));
    }

    public boolean isJson() {
        return headers.contentType().map(t -> t.text().startsWith("application/json")).orElse(false);
    }
}
