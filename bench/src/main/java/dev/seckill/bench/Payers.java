package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The winners' payment behaviour (issue 14): a share {@code ratio} of them, chosen by user id, pays as soon as its
 * order is CONFIRMED, through the edge like a shopper (its own address and token, one Idempotency-Key per payment);
 * the others let the window lapse. Each winner is handed over the moment its 202 arrives and handled on a virtual
 * thread of its own, so paying runs alongside the crowd. Outcomes: PAID, LATE (410: the window passed before the
 * payment), FAILED (no definite answer within the window and a minute).
 */
final class Payers implements AutoCloseable {

    /** How often a payer reads its order while it is QUEUED (well inside the edge's order-status limit). */
    private static final Duration POLL = Duration.ofMillis(300);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String edge;
    private final Users users;
    private final double ratio;
    private final Duration window;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();

    Payers(String edgeUrl, Users users, double ratio, Duration window) {
        this.edge = edgeUrl;
        this.users = users;
        this.ratio = ratio;
        this.window = window;
    }

    /** A winner's 202: pays for it, or lets it lapse, by the user's share. */
    void won(long userId, String orderId) {
        if (!pays(userId)) {
            count("LAPSES");
            return;
        }
        pool.execute(() -> count(pay(users.index(userId), userId, orderId)));
    }

    /** The same users pay in every run: a fixed spread of ids over [0, 1). */
    boolean pays(long userId) {
        return ((userId * 0x9E3779B97F4A7C15L) >>> 11) / (double) (1L << 53) < ratio;
    }

    private String pay(int index, long userId, String orderId) {
        long deadline = System.nanoTime() + window.plusMinutes(1).toNanos();
        String key = UUID.randomUUID().toString();
        try {
            while (System.nanoTime() < deadline) {
                HttpResponse<String> order = send(index, userId, "GET", "/api/orders/" + orderId, null);
                String state = code(order);
                if (state.equals("EXPIRED")) {
                    return "LATE";
                }
                if (state.equals("CONFIRMED")) {
                    break;
                }
                Thread.sleep(pause(order));
            }
            while (System.nanoTime() < deadline) {
                HttpResponse<String> r = send(index, userId, "POST", "/api/orders/" + orderId + "/pay", key);
                switch (code(r)) {
                    case "PAID" -> {
                        return "PAID";
                    }
                    case "ORDER_EXPIRED" -> {
                        return "LATE";
                    }
                    default -> Thread.sleep(pause(r));
                }
            }
        } catch (IOException e) {
            return "FAILED";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "FAILED";
    }

    private HttpResponse<String> send(int index, long userId, String method, String path, String key)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(edge + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + users.token(index))
                .header("X-Forwarded-For", Users.address(userId))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (key != null) {
            b.header("Idempotency-Key", key);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String code(HttpResponse<String> r) {
        try {
            JsonNode body = JSON.readTree(r.body());
            return body.path("code").asText("");
        } catch (IOException e) {
            return "";
        }
    }

    /** Retry-After when the answer asks to wait (409 not yet recorded, 429, 503), else the poll interval. */
    private static long pause(HttpResponse<String> r) {
        return r.headers().firstValue("Retry-After").map(s -> Long.parseLong(s.trim()) * 1000).orElse(POLL.toMillis());
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> new LongAdder()).increment();
    }

    /** Waits until every payer has an outcome. */
    Map<String, Long> finish() throws InterruptedException {
        pool.shutdown();
        if (!pool.awaitTermination(window.plusMinutes(2).toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("payers still paying after the window and two minutes");
        }
        Map<String, Long> out = new TreeMap<>();
        outcomes.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    @Override
    public void close() {
        pool.shutdownNow();
        http.close();
    }
}
