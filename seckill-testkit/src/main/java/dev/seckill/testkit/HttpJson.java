package dev.seckill.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A small JSON-over-HTTP client for tests (java.net.http underneath). Every answer it reads is checked against the
 * OpenAPI document ({@link ApiContract}).
 */
public final class HttpJson {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client;
    private final Duration requestTimeout;

    public HttpJson() {
        this(Duration.ofSeconds(5), Duration.ofSeconds(30));
    }

    /** A client that gives up connecting after {@code connectTimeout} and waiting for an answer after {@code requestTimeout}. */
    public HttpJson(Duration connectTimeout, Duration requestTimeout) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .build();
        this.requestTimeout = requestTimeout;
    }

    public Response get(String url, String... headers) {
        return send("GET", url, null, headers);
    }

    public Response post(String url, String body, String... headers) {
        return send("POST", url, body, headers);
    }

    /** Sends a request; headers are name/value pairs. A body, if any, is sent as application/json. */
    public Response send(String method, String url, String body, String... headers) {
        try {
            HttpResponse<String> r = client.send(request(method, url, body, headers), HttpResponse.BodyHandlers.ofString());
            Response response = new Response(r.statusCode(), r.headers().map(), r.body());
            ApiContract.check(method, url, response.status(), response::header, response.body());
            return response;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("failed to " + method + " " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Sends a request without ever failing, for tools that record what happens (a fault run): the future completes
     * with the {@link Answer}, of status 0 when none came (refused, reset, timed out), and an answer the OpenAPI
     * document does not describe is returned with the reason rather than thrown. Cancelling the future aborts the
     * exchange.
     */
    public CompletableFuture<Answer> attempt(String method, String url, String body, String... headers) {
        CompletableFuture<HttpResponse<String>> exchange;
        try {
            exchange = client.sendAsync(request(method, url, body, headers), HttpResponse.BodyHandlers.ofString());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(Answer.none(e));
        }
        CompletableFuture<Answer> answer = exchange.handle((r, failed) -> r == null ? Answer.none(failed)
                : new Answer(r.statusCode(), r.headers().map(), r.body(), ApiContract.violation(method, url,
                r.statusCode(), name -> r.headers().firstValue(name).orElse(null), r.body()), null));
        answer.whenComplete((a, e) -> {
            if (answer.isCancelled()) {
                exchange.cancel(true);
            }
        });
        return answer;
    }

    private HttpRequest request(String method, String url, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(requestTimeout);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return b.build();
    }

    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /**
     * What {@link #attempt} got: status, headers, raw body; {@code contract}: why the OpenAPI document does not
     * describe it (null when it does); {@code failure}: why no answer came (status 0), null when one did.
     */
    public record Answer(int status, Map<String, java.util.List<String>> headers, String body, String contract,
                         Throwable failure) {

        /** No answer, and why (null: not known). */
        public static Answer none(Throwable failure) {
            return new Answer(0, Map.of(), "", null, failure);
        }

        /** Whether no answer came because the request's timeout ran out (not a refused, reset or aborted one). */
        public boolean timedOut() {
            return failure instanceof HttpTimeoutException || failure != null && failure.getCause() instanceof HttpTimeoutException;
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }

        /** The body's JSON; a missing node when there is none or it is not JSON. */
        public JsonNode json() {
            try {
                return body == null || body.isBlank() ? JSON.missingNode() : JSON.readTree(body);
            } catch (IOException e) {
                return JSON.missingNode();
            }
        }

        /** The body's {@code code}, null when it has none. */
        public String code() {
            JsonNode c = json().path("code");
            return c.isTextual() ? c.asText() : null;
        }
    }

    /** A response: status, headers (lower-case names), raw body and its JSON. */
    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst().orElse(null);
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("body is not JSON (status " + status + "): " + body, e);
            }
        }

        public String code() {
            return json().path("code").asText();
        }
    }
}
