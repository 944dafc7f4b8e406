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
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * The workload's HTTP client: java.net.http with a client's patience (an answer that does not come within {@link
 * Timeouts#client()} is status 0), at most {@code inFlight} requests at once, each with the caller's X-Request-Id. A
 * request whose connection failed or was cut ({@link Answer#cut}: refused, reset, or aborted by its owner) is status 0
 * at once, as a browser shows a failed connection. Every answer is held against the OpenAPI document ({@link ApiContract}) as
 * the tests' clients hold theirs: what does not fit is named in {@link Answer#contract}.
 */
public final class Client {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One answer: status (0 = none), the body's code, the order id it names (body or X-Order-Id), the body; {@code
     * contract}: why the document does not describe it, null when it does; {@code entry}: the entry point that
     * answered (null: an address of the caller's own); {@code cut}: no answer because the connection failed or was
     * cut, not because the patience ran out.
     */
    public record Answer(int status, String code, String orderId, JsonNode body, long retryAfterSeconds,
                         String contract, String entry, boolean cut) {

        static final Answer NONE = new Answer(0, null, null, JSON.nullNode(), -1, null, null, false);
        static final Answer CUT = new Answer(0, null, null, JSON.nullNode(), -1, null, null, true);

        Answer from(String entryPoint) {
            return new Answer(status, code, orderId, body, retryAfterSeconds, contract, entryPoint, cut);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private final Semaphore inFlight;
    private final long patienceMillis;

    /** Reads the OpenAPI document now: a run without it fails before its first request, not on a workload thread. */
    public Client(int inFlight, long patienceMillis) {
        ApiContract.get();
        this.inFlight = new Semaphore(inFlight);
        this.patienceMillis = patienceMillis;
    }

    /** POSTs {@code body} (null: none) with the header pairs; never throws for a failed request. */
    public Answer post(String url, String body, String requestId, String... headers) {
        return send(request(url, body, requestId), null, headers);
    }

    public Answer get(String url, String requestId, String... headers) {
        return send(request(url, null, requestId).GET(), null, headers);
    }

    /** A POST of {@code body} (null: none) to {@code url} within the client's patience; {@code .GET()} makes it a GET. */
    HttpRequest.Builder request(String url, String body, String requestId) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMillis(patienceMillis))
                .header("X-Request-Id", requestId)
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return b;
    }

    /**
     * Sends the request; while it waits, its exchange is in {@code pending} (null: nowhere), whose owner may cancel it
     * (an answer then {@link Answer#cut}).
     */
    Answer send(HttpRequest.Builder b, Set<Future<?>> pending, String... headers) {
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
            CompletableFuture<HttpResponse<String>> exchange = http.sendAsync(request,
                    HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> r;
            if (pending != null) {
                pending.add(exchange);
            }
            try {
                r = exchange.get();
            } catch (ExecutionException e) {
                return e.getCause() instanceof HttpTimeoutException ? Answer.NONE : Answer.CUT;
            } catch (CancellationException e) {
                return Answer.CUT;
            } finally {
                if (pending != null) {
                    pending.remove(exchange);
                }
            }
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
            return new Answer(r.statusCode(), code, orderId, body, retryAfter, contract(request, r), null, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.NONE;
        } finally {
            inFlight.release();
        }
    }

    /** Why the document does not describe this answer, or null when it does. */
    private static String contract(HttpRequest request, HttpResponse<String> r) {
        return ApiContract.violation(request.method(), request.uri().getRawPath(), r.statusCode(),
                name -> r.headers().firstValue(name).orElse(null), r.body());
    }

    private static long seconds(String v) {
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
