package dev.seckill.system.protection;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ids that cannot exist cost no query: a flood through the edge of sale ids that do not exist below the
 * highest one (a gap the test makes in the ids), purchases of them, and order-status lookups of random order ids,
 * with MariaDB's global {@code Questions} counter read before and after. Every answer is a 404, and beyond the
 * stack's own background work (the expiry's pass every second over every sale the suite has made, the pools'
 * keep-alive: measured over a window as long as the flood, with no request, before and after it) the counter moves
 * by far fewer than one query per request. A lookup per id would cost at least 3,000 queries here.
 */
class RandomIdsIT {

    private static final int GAP = 300;
    private static final int PER_KIND = 1500;
    private static final int THREADS = 16;

    private final ProtectionStack svc = new ProtectionStack();

    private long questions(Connection db) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
            rs.next();
            return rs.getLong(2);
        }
    }

    @Test
    void aFloodOfIdsThatCannotExistLeavesTheDatabaseQueryCountFlat() throws Exception {
        try (Connection db = svc.stack.db()) {
            long below = gapBelowANewSale(db);
            long top = below + GAP;
            // The catalog learns the new sale and its gap at its next refresh, then holds the gap as young (an
            // insert racing another commits within milliseconds) for a few seconds: wait until a lookup is free.
            svc.http.get(svc.stack.edgeUrl() + "/api/sales/" + (top + 1_000_000));
            Await.until(java.time.Duration.ofSeconds(60), () -> {
                try {
                    long before = questions(db);
                    for (int i = 1; i <= 20; i++) {
                        svc.http.get(svc.stack.serviceUrl() + "/api/sales/" + (below + i));
                    }
                    return questions(db) - before < 20;
                } catch (SQLException e) {
                    throw new AssertionError(e);
                }
            }, "the gap below sale " + top + " to be known as final");

            long before = questions(db);
            long t0 = System.nanoTime();
            Map<String, Integer> answers = flood(below, top);
            long floodNanos = System.nanoTime() - t0;
            long during = questions(db) - before - 1;
            long background = Math.max(idle(db, floodNanos), idle(db, floodNanos));
            int requests = answers.values().stream().mapToInt(Integer::intValue).sum();
            System.out.printf("random ids: %,d requests in %.1f s %s; MariaDB Questions +%d during the flood, +%d in"
                    + " as long without requests%n", requests, floodNanos / 1e9, answers, during, background);

            // The edge's total admission may refuse some purchases itself (429): they reach nothing either.
            assertTrue(Set.of("404 ORDER_NOT_FOUND", "404 SALE_NOT_FOUND", "429 RATE_LIMITED")
                    .containsAll(answers.keySet()), answers.toString());
            assertEquals(PER_KIND, answers.get("404 ORDER_NOT_FOUND"));
            assertTrue(during - background < requests / 10.0, during + " queries for " + requests + " requests, "
                    + background + " without any");
        }
    }

    /**
     * The queries the stack makes by itself in {@code nanos} without any request: a measurement window of fixed
     * length (not a wait for a condition).
     */
    private long idle(Connection db, long nanos) throws SQLException, InterruptedException {
        long before = questions(db);
        Thread.sleep(java.time.Duration.ofNanos(nanos));
        return questions(db) - before - 1;
    }

    /** Leaves {@link #GAP} ids below a new sale that no sale has; returns the id just below the gap. */
    private long gapBelowANewSale(Connection db) throws SQLException {
        long max;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM sale")) {
            rs.next();
            max = rs.getLong(1);
        }
        try (Statement s = db.createStatement()) {
            s.execute("ALTER TABLE sale AUTO_INCREMENT = " + (max + GAP + 1));
        }
        long sale = svc.activeSale(1);
        assertTrue(sale > max + GAP, "the new sale " + sale + " is above the gap");
        return sale - GAP - 1;
    }

    /** Sale pages and purchases of ids in the gap, and order lookups of random ids, from many addresses. */
    private Map<String, Integer> flood(long below, long top) throws InterruptedException {
        Map<String, Integer> out = Collections.synchronizedMap(new TreeMap<>());
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        long user = svc.newUser();
        for (int t = 0; t < THREADS; t++) {
            threads.add(Thread.ofPlatform().daemon().start(() -> {
                for (int i = next.getAndIncrement(); i < 3 * PER_KIND; i = next.getAndIncrement()) {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    long sale = r.nextLong(below + 1, top);
                    String ip = "10.19." + (i >>> 8 & 0xff) + "." + (i & 0xff);
                    HttpJson.Response a = switch (i % 3) {
                        case 0 -> svc.http.get(svc.stack.edgeUrl() + "/api/sales/" + sale, from(ip));
                        case 1 -> svc.purchase(sale, user + i);
                        default -> svc.order(Long.toString(r.nextLong(1, Long.MAX_VALUE)), user + i);
                    };
                    out.merge(a.status() + " " + a.code(), 1, Integer::sum);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return out;
    }
}
