package dev.seckill.system.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.Await;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Circuit breakers: each dependency stopped under a bounded load through the edge. While it is down the
 * first requests fail after the client's timeout; once a run of them has failed its breaker opens, the public health
 * answers 503 DEGRADED naming it, and every request that needs it is answered 503 UNAVAILABLE with Retry-After
 * without calling it (the service's refused counter rises by one per answer). When the dependency is back the breaker
 * half-opens, closes, and the sale's invariants hold. Timings are printed, never asserted (two shared cores).
 */
class BreakerStackIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    /** Concurrent requests of the load that opens the breaker. */
    private static final int LOAD = 8;
    /** Requests sent once the breaker is open. */
    private static final int WHILE_OPEN = 40;
    /** BreakerSettings.STANDARD's half-open calls: probes that may reach the dependency if the wait ends during the loop. */
    private static final int PROBES = 3;

    private final ProtectionStack svc = new ProtectionStack();

    /** One answer and how long it took. */
    private record Timed(HttpJson.Response response, double millis) {
    }

    private static Timed timed(Supplier<HttpJson.Response> request) {
        long t0 = System.nanoTime();
        HttpJson.Response r = request.get();
        return new Timed(r, (System.nanoTime() - t0) / 1e6);
    }

    @BeforeEach
    void ready() {
        svc.awaitReady();
    }

    @Test
    void redisStoppedOpensItsBreakerAndPurchasesAreRefusedAtOnce() {
        long sale = svc.activeSale(1000);
        assertEquals(202, svc.purchase(sale, svc.newUser()).status());
        outage("redis", () -> svc.purchase(sale, svc.newUser()), 202, () -> { }, null);
        settled(sale);
    }

    @Test
    void kafkaStoppedOpensItsBreakerAndPurchasesAreRefusedBeforeAUnitIsTaken() {
        long sale = svc.activeSale(1000);
        assertEquals(202, svc.purchase(sale, svc.newUser()).status());
        outage("kafka", () -> svc.purchase(sale, svc.newUser()), 202, () -> { }, sale);
        settled(sale);
    }

    @Test
    void theDatabaseStoppedOpensItsBreakerForOrderReadsWhileCachedSalesStillSell() {
        long sale = svc.activeSale(1000);
        long buyer = svc.newUser();
        HttpJson.Response bought = svc.purchase(sale, buyer);
        assertEquals(202, bought.status(), bought.body());
        String orderId = bought.json().path("orderId").asText();
        Await.until(Duration.ofSeconds(30), () -> "CONFIRMED".equals(svc.order(orderId, buyer).code()),
                "the order to be written");
        outage("db", () -> svc.order(orderId, buyer), 200, () -> {
            HttpJson.Response r = svc.purchase(sale, svc.newUser());
            assertEquals(202, r.status(), "a sale this instance holds needs no database to sell: " + r.body());
        }, null);
        settled(sale);
    }

    /**
     * Stops the dependency, loads the request until the breaker opens, checks the answers while open (and runs
     * {@code whileOpen}), starts it again and waits for {@code okStatus}. With {@code stockOf} a sale, the answers
     * while open are shown to have taken no unit: its stock read from Redis and from MySQL before and after them.
     */
    private void outage(String dependency, Supplier<HttpJson.Response> request, int okStatus, Runnable whileOpen,
                        Long stockOf) {
        svc.stack.seckill(STACK_OP, "down", dependency);
        List<Timed> opening = new ArrayList<>();
        List<Timed> open = new ArrayList<>();
        try {
            Await.until(Duration.ofSeconds(90), () -> {
                opening.addAll(concurrently(request));
                return openBreakers().contains(dependency);
            }, "the " + dependency + " breaker to open");
            HttpJson.Response health = svc.health();
            assertEquals(503, health.status(), health.body());
            assertEquals("DEGRADED", health.code());

            Map<String, Double> before = svc.metrics();
            long[] stockBefore = stockOf == null ? null : stock(stockOf);
            for (int i = 0; i < WHILE_OPEN; i++) {
                open.add(timed(request));
            }
            long[] stockAfter = stockOf == null ? null : stock(stockOf);
            Map<String, Double> after = svc.metrics();
            for (Timed t : open) {
                assertEquals(503, t.response().status(), t.response().body());
                assertEquals("UNAVAILABLE", t.response().code());
                assertNotNull(t.response().header("Retry-After"));
            }
            double refused = ProtectionStack.series(after, "seckill_breaker_refused", "\"" + dependency + "\"")
                    - ProtectionStack.series(before, "seckill_breaker_refused", "\"" + dependency + "\"");
            assertTrue(refused >= WHILE_OPEN - PROBES, refused + " of " + WHILE_OPEN + " answers were refused "
                    + "without calling " + dependency);
            if (stockOf != null) {
                // A refused request takes no unit; a half-open probe the breaker let through reserves one and keeps
                // it for its resend (its send fails while the dependency is down): none unless the wait ended.
                long letThrough = WHILE_OPEN - Math.round(refused);
                System.out.printf("breaker %s: stock of sale %d before %d answers while open: Redis %d, MySQL %d; "
                        + "after: Redis %d, MySQL %d; let through %d%n", dependency, stockOf, WHILE_OPEN,
                        stockBefore[0], stockBefore[1], stockAfter[0], stockAfter[1], letThrough);
                assertEquals(letThrough, stockBefore[0] - stockAfter[0], "Redis stock moved by other than the "
                        + letThrough + " requests the breaker let through");
                assertEquals(stockBefore[1], stockAfter[1], "MySQL stock moved while " + dependency + " was down");
            }
            whileOpen.run();
        } finally {
            svc.stack.seckill(STACK_OP, "up", dependency);
        }
        System.out.printf("breaker %s: %d answers before it opened %s, p50 %.0f ms, max %.0f ms; %d while open, "
                        + "p50 %.1f ms, max %.1f ms%n", dependency, opening.size(), byStatus(opening),
                percentile(opening, 50), percentile(opening, 100), open.size(), percentile(open, 50),
                percentile(open, 100));
        Await.until(Duration.ofSeconds(120), () -> request.get().status() == okStatus,
                "requests to succeed again once " + dependency + " is back");
        Await.until(Duration.ofSeconds(30), () -> svc.health().status() == 200, "the health to say UP again");
    }

    /** The sale's stock read directly: {Redis remaining, MySQL sale.stock}. */
    private long[] stock(long sale) {
        RedissonClient redis = StackRedis.connect(svc.stack, RedisClients::connect);
        try (Connection c = svc.stack.db();
             PreparedStatement ps = c.prepareStatement("SELECT stock FROM sale WHERE id = ?")) {
            ps.setLong(1, sale);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "sale " + sale + " in MySQL");
                return new long[] {redis.getAtomicLong(Keys.stock(sale)).get(), rs.getLong(1)};
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read the stock of sale " + sale + ": " + e.getMessage(), e);
        } finally {
            redis.shutdown();
        }
    }

    private List<Timed> concurrently(Supplier<HttpJson.Response> request) {
        List<Thread> threads = new ArrayList<>();
        List<Timed> out = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < LOAD; i++) {
            threads.add(Thread.ofPlatform().daemon().start(() -> out.add(timed(request))));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        return out;
    }

    private List<String> openBreakers() {
        HttpJson.Response h = svc.health();
        List<String> open = new ArrayList<>();
        if (h.status() == 503) {
            h.json().path("open").forEach(n -> open.add(n.asText()));
        }
        return open;
    }

    /** The invariants of docs/invariants.md once the writer caught up (reconcile releases what a failure left). */
    private void settled(long sale) {
        JsonNode[] last = new JsonNode[1];
        try {
            Await.until(Duration.ofSeconds(150), () -> {
                svc.reconcile(sale);
                last[0] = svc.stats(sale);
                return last[0].path("consistent").asBoolean() && last[0].path("disagreementCount").asInt(-1) == 0;
            }, "sale " + sale + " to be consistent (marks and rows one to one) after the outage");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; last stats " + last[0], e);
        }
    }

    private static Map<Integer, Long> byStatus(List<Timed> answers) {
        Map<Integer, Long> out = new java.util.TreeMap<>();
        answers.forEach(t -> out.merge(t.response().status(), 1L, Long::sum));
        return out;
    }

    private static double percentile(List<Timed> answers, int p) {
        if (answers.isEmpty()) {
            return 0;
        }
        double[] ms = answers.stream().mapToDouble(Timed::millis).sorted().toArray();
        return ms[Math.min(ms.length - 1, (int) Math.ceil(p / 100.0 * ms.length) - 1)];
    }
}
