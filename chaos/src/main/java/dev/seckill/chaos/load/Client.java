package dev.seckill.chaos.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.chaos.fault.Timeouts;
import dev.seckill.testkit.ApiContract;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * The workload's HTTP client: java.net.http with short timeouts (an answer that does not come within
 * {@link Timeouts#CLIENT_TIMEOUT_MS} is status 0, like a refused connection), at most {@code inFlight} requests at
 * once, each with the caller's X-Request-Id. Every answer is held against the OpenAPI document ({@link ApiContract}) as
 * the tests' clients hold theirs: what does not fit is named in {@link Answer#contract}.
 */
public final class Client {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One answer: status (0 = none), the body's code, the order id it names (body or X-Order-Id), the body; {@code
     * contract}: why the document does not describe it, null when it does.
     */
    public record Answer(int status, String code, String orderId, JsonNode body, long retryAfterSeconds,
                         String contract) {

        static final Answer NONE = new Answer(0, null, null, JSON.nullNode(), -1, null);
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private final Semaphore inFlight;

    /** Reads the OpenAPI document now: a run without it fails before its first request, not on a workload thread. */
    public Client(int inFlight) {
        ApiContract.get();
        this.inFlight = new Semaphore(inFlight);
    }

    /** POSTs {@code body} (null: none) with the header pairs; never throws for a failed request. */
    public Answer post(String url, String body, String requestId, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMillis(Timeouts.CLIENT_TIMEOUT_MS))
                .header("X-Request-Id", requestId)
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b, headers);
    }

    public Answer get(String url, String requestId, String... headers) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(Timeouts.CLIENT_TIMEOUT_MS))
                .header("X-Request-Id", requestId).GET(), headers);
    }

    private Answer send(HttpRequest.Builder b, String... headers) {
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.NONE;
        }
        try {
            HttpRequest request = b.build();
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body;
            try {
                body = r.body() == null || r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
            } catch (IOException e) {
                body = JSON.nullNode();
            }
            String code = body.path("code").isTextual() ? body.path("code").asText() : null;
            String orderId = body.path("orderId").isTextual() ? body.path("orderId").asText()
                    : r.headers().firstValue("X-Order-Id").orElse(null);
            long retryAfter = r.headers().firstValue("Retry-After").map(Client::seconds).orElse(-1L);
            return new Answer(r.statusCode(), code, orderId, body, retryAfter, contract(request, r));
        } catch (IOException e) {
            return Answer.NONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.NONE;
        } finally {
            inFlight.release();
        }
    }

    /** Why the document does not describe this answer, or null when it does. */
    private static String contract(HttpRequest request, HttpResponse<String> r) {
        try {
            ApiContract.check(request.method(), request.uri().getRawPath(), r.statusCode(),
                    name -> r.headers().firstValue(name).orElse(null), r.body());
            return null;
        } catch (AssertionError e) {
            return e.getMessage();
        }
    }

    private static long seconds(String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
