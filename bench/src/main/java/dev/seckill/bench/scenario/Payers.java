package dev.seckill.bench.scenario;

import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.Users;
import dev.seckill.testkit.Bodies;

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

/**
 * The winners' payment behaviour: a share {@code ratio} of them, chosen by user id, pays through the edge as soon as
 * its order is CONFIRMED, on a virtual thread each; the others let the window lapse. Outcomes: PAID, LATE (the window
 * passed first), FAILED (no definite answer within the window and a minute), LAPSES.
 */
public final class Payers implements AutoCloseable {

    private final String edge;
    private final Users users;
    private final double ratio;
    private final Duration window;
    private final HttpClient http = HttpClient.newHttpClient();
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Long> outcomes = new ConcurrentHashMap<>();

    public Payers(String edgeUrl, Users users, double ratio, Duration window) {
        this.edge = edgeUrl;
        this.users = users;
        this.ratio = ratio;
        this.window = window;
    }

    /** A winner's 202: the same users pay in every run, by a fixed spread of their ids over [0, 1). */
    public void won(Attempt a) {
        if (((a.userId() * 0x9E3779B97F4A7C15L) >>> 11) / (double) (1L << 53) < ratio) {
            pool.execute(() -> outcomes.merge(pay(a.userId(), a.orderId()), 1L, Long::sum));
        } else {
            outcomes.merge("LAPSES", 1L, Long::sum);
        }
    }

    /** Reads the order until it is CONFIRMED, then pays it, waiting out each Retry-After (else 300 ms). */
    private String pay(long userId, String orderId) {
        long deadline = System.nanoTime() + window.plusMinutes(1).toNanos();
        String key = UUID.randomUUID().toString();
        boolean confirmed = false;
        try {
            while (System.nanoTime() < deadline) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(edge + "/api/orders/" + orderId
                                + (confirmed ? "/pay" : ""))).timeout(Duration.ofSeconds(10))
                        .header("Authorization", "Bearer " + users.token(users.index(userId)))
                        .header("X-Forwarded-For", Users.address(userId)).header("Idempotency-Key", key)
                        .method(confirmed ? "POST" : "GET", HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                switch (String.valueOf(Bodies.field(r.body(), "code"))) {
                    case "PAID" -> {
                        return "PAID";
                    }
                    case "EXPIRED", "ORDER_EXPIRED" -> {
                        return "LATE";
                    }
                    case "CONFIRMED" -> confirmed = true;
                    default -> Thread.sleep(r.headers().firstValueAsLong("Retry-After").stream().map(s -> s * 1000)
                            .findFirst().orElse(300));
                }
            }
        } catch (IOException | InterruptedException e) {
            // no definite answer
        }
        return "FAILED";
    }

    /** Waits until every payer has an outcome (each ends by its deadline). */
    public Map<String, Long> finish() {
        pool.close();
        return new TreeMap<>(outcomes);
    }

    @Override
    public void close() {
        pool.shutdownNow();
        http.close();
    }
}
