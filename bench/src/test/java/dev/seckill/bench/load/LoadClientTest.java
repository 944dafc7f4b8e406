package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The crowd through the load client against a small local server that plays a sale: each user's first click is
 * rate limited (429), the next ones accepted (202) until the stock is gone, then SOLD_OUT (410).
 */
class LoadClientTest {

    private static final int STOCK = 5;

    private HttpServer server;
    private final Map<String, AtomicInteger> clicks = new ConcurrentHashMap<>();
    private final AtomicInteger sold = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", ex -> {
            String user = ex.getRequestHeaders().getFirst("X-Forwarded-For");
            int n = clicks.computeIfAbsent(user, u -> new AtomicInteger()).incrementAndGet();
            int status;
            String body;
            if (n == 1) {
                status = 429;
                body = "{\"code\":\"RATE_LIMITED\"}";
            } else if (sold.incrementAndGet() <= STOCK) {
                status = 202;
                body = "{\"code\":\"QUEUED\",\"orderId\":\"" + (1000 + n) + "\"}";
            } else {
                status = 410;
                body = "{\"code\":\"SOLD_OUT\"}";
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, b.length);
            ex.getResponseBody().write(b);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void everyUserClicksUntilItHoldsAnOrderOrHasClickedItsShare() throws IOException {
        Users users = new Users("a-secret-of-at-least-thirty-two-bytes", 1, 40);
        long t0 = System.nanoTime();
        Crowd crowd = new Crowd(users, 7, server.getAddress().getPort(), 3, t0);

        LoadClient.run(server.getAddress().getPort(), 8, crowd, t0 + Duration.ofSeconds(30).toNanos(),
                Duration.ofSeconds(10));

        List<AnsweredClick> attempts = crowd.attempts();
        Map<Long, List<AnsweredClick>> byUser = attempts.stream().collect(Collectors.groupingBy(AnsweredClick::userId));
        assertEquals(40, byUser.size(), "every user clicked");
        assertEquals(STOCK, attempts.stream().filter(AnsweredClick::accepted).count());
        for (List<AnsweredClick> mine : byUser.values()) {
            boolean won = mine.stream().anyMatch(AnsweredClick::accepted);
            assertEquals(won ? 2 : 3, mine.size(), "a winner stops at its 202, everybody else clicks 3 times: " + mine);
            assertEquals(429, firstStatus(mine), "the first click of each user was rate limited: " + mine);
        }
        assertTrue(attempts.stream().allMatch(a -> a.latencyNanos() > 0 && a.startNanos() >= 0));
        assertTrue(attempts.stream().filter(AnsweredClick::accepted).allMatch(a -> a.orderId() != null));
    }

    /** A steady script sends until its deadline, every answer counted, and every connection is counted. */
    @Test
    void aSteadyScriptCountsEveryAnswerAndEveryConnection() throws IOException {
        int connections = 8;
        Users users = new Users("a-secret-of-at-least-32-bytes-for-tests", 1, connections);
        int port = server.getAddress().getPort();
        AtomicInteger sent = new AtomicInteger();
        long t0 = System.nanoTime();
        Steady steady = new Steady(i -> {
            sent.incrementAndGet();
            return new LoadClient.Request(users.purchase(i % connections, 7, port), null);
        }, t0, t0 + Duration.ofMillis(300).toNanos(), null);

        LoadClient.Wire wire = LoadClient.run(port, connections, steady, t0 + Duration.ofSeconds(30).toNanos(),
                Duration.ofSeconds(10));

        assertEquals(connections, wire.connected());
        assertEquals(0, wire.failed());
        Measured m = steady.result("steady");
        assertEquals(sent.get(), m.requests(), "every request sent was answered and counted");
        assertEquals(0, m.count("0"), m.byStatus().toString());
    }

    private static int firstStatus(List<AnsweredClick> mine) {
        return mine.stream().min((a, b) -> Long.compare(a.startNanos(), b.startNanos())).orElseThrow().status();
    }
}
