package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Does the expiry of many unpaid orders at once disturb a running sale (issue 14)? {@code n} shoppers buy every unit
 * of a sale whose window is {@value #WINDOW_SECONDS} s and none of them pays. A probe, new buyers of another sale
 * over {@value #PROBE_CONNECTIONS} connections, runs twice: once while nothing expires (the baseline), once from
 * just before the first of those orders lapses until a few seconds after the last: the whole mass expiry. The two
 * probes' latency and throughput side by side are the answer, with how many orders expired meanwhile and the
 * longest expiry pass the service timed.
 */
final class ExpiryImpact {

    static final int WINDOW_SECONDS = 20;
    static final int PROBE_CONNECTIONS = 32;
    private static final Duration BASELINE = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param expired       orders of the lapsing sale that expired during the second probe
     * @param longestPassMs the longest expiry pass the service timed meanwhile
     */
    record Result(int orders, long expired, double longestPassMs, Measured baseline, Measured duringExpiry) {
    }

    private ExpiryImpact() {
    }

    static Result run(Stack stack, Admin admin, int n, long firstUser, int connections)
            throws IOException, InterruptedException {
        long lapsing = admin.createSale("bench-expiry-" + System.currentTimeMillis(), n,
                Duration.ofSeconds(WINDOW_SECONDS));
        Users buyers = new Users(stack.tokenSecret(), firstUser, n);
        InetSocketAddress edge = new InetSocketAddress("127.0.0.1", stack.edgePort());
        long t0 = System.nanoTime();
        Crowd crowd = new Crowd(buyers, lapsing, stack.edgePort(), 3, t0);
        LoadClient.run(edge, connections, crowd, t0 + Duration.ofMinutes(2).toNanos(), Duration.ofSeconds(30));
        List<Attempt> won = crowd.attempts().stream().filter(Attempt::accepted).toList();
        if (won.isEmpty() || admin.awaitDrained(lapsing, won.size(), Duration.ofMinutes(2)) == null) {
            throw new IllegalStateException("the lapsing sale " + lapsing + " was not bought and written");
        }
        Instant firstLapse = payBy(stack, buyers, won.getFirst());
        Instant lastLapse = payBy(stack, buyers, won.getLast());
        Bench.say("expiry impact: " + won.size() + " unpaid orders of sale " + lapsing + " lapse from " + firstLapse
                + " to " + lastLapse);

        long probeSale = admin.createSale("bench-expiry-probe-" + System.currentTimeMillis(), 1_000_000);
        Users probeUsers = new Users(stack.tokenSecret(), firstUser + n, 200_000);
        int[] next = {0};
        Measured baseline = probe(edge, probeSale, probeUsers, next, "probe, nothing expiring", BASELINE);

        long wait = Duration.between(Instant.now(), firstLapse).toMillis() - 1000;
        if (wait > 0) {
            Thread.sleep(wait);
        }
        Map<String, Double> before = admin.serviceMetrics();
        Duration span = Duration.between(Instant.now(), lastLapse).plusSeconds(4);
        Measured during = probe(edge, probeSale, probeUsers, next, "probe, during the mass expiry", span);
        Map<String, Double> after = admin.serviceMetrics();
        long expired = Math.round(after.getOrDefault("seckill_orders_expired_total", 0.0)
                - before.getOrDefault("seckill_orders_expired_total", 0.0));
        double longest = after.getOrDefault("seckill_expiry_pass_seconds_max", 0.0) * 1000;
        return new Result(won.size(), expired, longest, baseline, during);
    }

    /** New buyers of the probe sale, one purchase each, for {@code length}. */
    private static Measured probe(InetSocketAddress edge, long sale, Users users, int[] next, String name,
                                  Duration length) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Steady s = new Steady(i -> {
            int u = next[0]++ % users.size();
            return new LoadClient.Request(users.purchase(u, sale, edge.getPort()), users.id(u));
        }, t0, t0 + length.toNanos(), null);
        LoadClient.run(edge, PROBE_CONNECTIONS, s, t0 + length.toNanos(), Duration.ofSeconds(30));
        return s.result(name);
    }

    /** An order's payBy, read by its owner through the edge. */
    private static Instant payBy(Stack stack, Users users, Attempt a) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(stack.edgeUrl() + "/api/orders/"
                            + a.orderId())).header("Authorization", "Bearer " + users.token(users.index(a.userId())))
                    .header("X-Forwarded-For", Users.address(a.userId())).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return Instant.parse(JSON.readTree(r.body()).path("payBy").asText());
        }
    }
}
