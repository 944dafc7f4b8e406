package dev.seckill.system.reliability;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Overload: far more clients than the box can serve, hammering without pause from a few addresses, half on a sale
 * that sells out at once, half on one that has not started. The edge sheds with 429 (per IP) and 410 (sold-out flag); nothing answers 5xx;
 * the service stops receiving the flood (its in-flight count returns to zero) and its memory stays bounded.
 * Latency is reported, not asserted (timing stays out of pass/fail on two shared cores).
 */
class OverloadIT {

    private static final int CLIENTS = 1024;
    private static final Duration FLOOD = Duration.ofSeconds(12);
    private static final long RSS_GROWTH_LIMIT_KB = 300 * 1024;

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void aFloodIsShedWith429And410WithoutErrorsAndTheServiceStaysBounded() throws Exception {
        Instant now = Instant.now();
        // Half the crowd on a sale that sells out at once (the edge's flag answers 410), half on one that has not
        // started (the per-IP limit answers 429 before the service's 409 NOT_STARTED).
        long sale = createSale(20, now.minusSeconds(1));
        long upcoming = createSale(20, now.plusSeconds(3600));
        long rssBefore = rssKb();
        Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
        Map<String, Integer> failures = new ConcurrentHashMap<>();
        Histogram latency = new Histogram(60_000_000_000L, 3);
        TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        URI soldOut = URI.create(stack.edgeUrl() + "/api/sales/" + sale + "/purchase");
        URI notYet = URI.create(stack.edgeUrl() + "/api/sales/" + upcoming + "/purchase");
        long deadline = System.nanoTime() + FLOOD.toNanos();
        long firstUser = 7_000_000_000_000L + System.nanoTime() % 1_000_000_000L;
        try (ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().name("overload-", 0)
                .factory())) {
            for (int c = 0; c < CLIENTS; c++) {
                long user = firstUser + c;
                // Sixteen client addresses for 1,024 clients: the per-IP limit is what must hold the flood.
                HttpRequest req = HttpRequest.newBuilder(c % 2 == 0 ? soldOut : notYet).timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + signer.mint(user))
                        .header("X-Forwarded-For", "10.9.9." + (c % 16))
                        .POST(HttpRequest.BodyPublishers.noBody()).build();
                pool.submit(() -> {
                    for (int i = 0; i < 10_000 && System.nanoTime() < deadline; i++) {
                        long t0 = System.nanoTime();
                        int status;
                        try {
                            status = client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (IOException e) {
                            status = 0;
                            failures.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
                        }
                        synchronized (latency) {
                            latency.recordValue(Math.min(System.nanoTime() - t0, latency.getHighestTrackableValue()));
                        }
                        byStatus.computeIfAbsent(status, k -> new AtomicLong()).incrementAndGet();
                    }
                    return null;
                });
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(FLOOD.toSeconds() + 90, TimeUnit.SECONDS), "the flood did not stop");
        }
        Map<Integer, Long> counts = new TreeMap<>();
        byStatus.forEach((k, v) -> counts.put(k, v.get()));
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("overload: %d requests from %d clients in %s: by status %s; latency ms p50 %.1f p99 %.1f max %.1f%n",
                total, CLIENTS, FLOOD, counts, latency.getValueAtPercentile(50) / 1e6,
                latency.getValueAtPercentile(99) / 1e6, latency.getMaxValue() / 1e6);
        if (!failures.isEmpty()) {
            System.out.println("overload: requests without an answer: " + failures);
        }

        // A connection the flood's own client lost (the JDK client on this shared box: "header parser received no
        // bytes", once in 125,341 in CI) is no answer of the edge's; at most one in a thousand is tolerated, as in
        // every flood test (protection/Flood).
        assertTrue(counts.getOrDefault(0, 0L) * 1000 <= total, "requests the client lost: " + failures);
        assertTrue(counts.keySet().stream().allMatch(s -> s == 0 || s == 202 || s == 409 || s == 410 || s == 429),
                "only accepted, already, sold out and rate limited: " + counts + "; no answer: " + failures);
        assertTrue(counts.getOrDefault(429, 0L) > 0, "the edge shed with 429: " + counts);
        assertTrue(counts.getOrDefault(409, 0L) > 0, "what passed the limit reached the service: " + counts);
        assertTrue(counts.getOrDefault(410, 0L) > 0, "the edge answered sold out: " + counts);
        assertEquals(20L, counts.getOrDefault(202, 0L), "exactly the stock was sold: " + counts);
        Await.until(Duration.ofSeconds(30), () -> inFlight() == 0, "the service's in-flight purchases to drain");
        long rssAfter = rssKb();
        assertTrue(rssAfter - rssBefore < RSS_GROWTH_LIMIT_KB,
                "service memory grew from " + rssBefore + " kB to " + rssAfter + " kB");
    }

    private long createSale(int stock, Instant startsAt) {
        return new AdminSales(stack, http).sale("overload-").priceCents(1).stock(stock).startsAt(startsAt)
                .endsAt(startsAt.plusSeconds(7200)).create();
    }

    private long rssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(stack.pid("service")), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new AssertionError("no VmRSS for the service");
    }

    private double inFlight() {
        for (String line : http.get(stack.adminUrl() + "/observe/metrics").body().split("\n")) {
            if (line.startsWith("seckill_purchases_inflight")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no in-flight gauge in the metrics");
    }
}
