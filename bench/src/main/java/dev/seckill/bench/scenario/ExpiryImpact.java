package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Admin;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * Does the expiry of many unpaid orders at once disturb a running sale? {@code n} shoppers buy every unit of a sale
 * with a {@value #WINDOW_SECONDS} s window and none pays; a probe, new buyers of another sale, runs while nothing
 * expires, then from just before the first of those orders lapses until a few seconds after the last.
 */
public final class ExpiryImpact {

    static final int WINDOW_SECONDS = 20;
    static final int PROBE_CONNECTIONS = 32;

    /** {@code expired}: orders that expired during the second probe; {@code longestPassMs}: the longest pass. */
    public record Result(int orders, long expired, double longestPassMs, Measured baseline, Measured duringExpiry) {

        public Section addTo(Section s) {
            s.text("### A running sale while %,d unpaid orders expire at once", orders).table("probe (new buyers of "
                    + "another sale, " + PROBE_CONNECTIONS + " connections)", "answers/s", "p50", "p99", "max");
            for (Measured m : List.of(baseline, duringExpiry)) {
                s.row(m.name(), f("%,.0f", m.rps()), f("%.2f ms", m.latency().p50()), f("%.2f ms", m.latency().p99()),
                        f("%.2f ms", m.latency().max()));
            }
            return s.text("%,d orders expired during the second probe; the longest expiry pass took %.1f ms.", expired,
                    longestPassMs);
        }
    }

    public static Result run(Stack stack, Admin admin, int n, long firstUser, int connections)
            throws IOException, InterruptedException {
        long lapsing = admin.createSale("bench-expiry-" + System.currentTimeMillis(), n,
                Duration.ofSeconds(WINDOW_SECONDS));
        // No order is written before the crowd starts, and every one is by the time the writer has drained.
        Instant firstLapse = Instant.now().plusSeconds(WINDOW_SECONDS);
        long t0 = System.nanoTime();
        Crowd crowd = new Crowd(new Users(stack.tokenSecret(), firstUser, n), lapsing, stack.edgePort(), 3, t0);
        LoadClient.run(new InetSocketAddress("127.0.0.1", stack.edgePort()), connections, crowd,
                t0 + Duration.ofMinutes(2).toNanos(), Duration.ofSeconds(30));
        long won = crowd.attempts().stream().filter(Attempt::accepted).count();
        if (won == 0 || admin.awaitDrained(lapsing, won, Duration.ofMinutes(2)) == null) {
            throw new IllegalStateException("the lapsing sale " + lapsing + " was not bought and written");
        }
        Instant lastLapse = Instant.now().plusSeconds(WINDOW_SECONDS);
        Bench.say("expiry impact: " + won + " unpaid orders of sale " + lapsing + " lapse until " + lastLapse);

        long probeSale = admin.createSale("bench-expiry-probe-" + System.currentTimeMillis(), 1_000_000);
        Users users = new Users(stack.tokenSecret(), firstUser + n, 200_000);
        Measured baseline = probe(stack, probeSale, users, 0, "probe, nothing expiring", Duration.ofSeconds(5));
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), firstLapse).toMillis() - 1000));
        Map<String, Double> before = admin.serviceMetrics();
        // Past every buyer the first probe had answered or in flight.
        Measured during = probe(stack, probeSale, users, baseline.requests() + PROBE_CONNECTIONS,
                "probe, during the mass expiry", Duration.between(Instant.now(), lastLapse).plusSeconds(4));
        Map<String, Double> after = admin.serviceMetrics();
        return new Result((int) won, FloodLevels.delta(before, after, "seckill_orders_expired_total"),
                after.getOrDefault("seckill_expiry_pass_seconds_max", 0.0) * 1000, baseline, during);
    }

    /** New buyers of the probe sale from the {@code from}-th on, one purchase each, for {@code length}. */
    private static Measured probe(Stack stack, long sale, Users users, long from, String name, Duration length)
            throws IOException {
        return Ceilings.steady(stack.edgePort(), PROBE_CONNECTIONS, name, i -> {
            int u = (int) ((from + i) % users.size());
            return new LoadClient.Request(users.purchase(u, sale, stack.edgePort()), users.id(u));
        }, length, null, false);
    }
}
