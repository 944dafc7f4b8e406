package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.StatsReading;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Bodies;
import com.fasterxml.jackson.annotation.JsonIgnore;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static dev.seckill.bench.report.Section.f;

/**
 * The flash sale with payment behaviour: each wave's winners pay or let the window lapse ({@link Payers}); once every
 * order is PAID or EXPIRED and Redis has its lapsed units back, those go on sale to {@value #SHOPPERS_PER_UNIT} new
 * shoppers per unit, for at most {@value #WAVES} waves. Then, with --expiry-orders, does the expiry of many unpaid
 * orders at once disturb a running sale? That many shoppers buy every unit of a sale with a {@value #WINDOW_SECONDS}
 * s window and none pays; a probe, new buyers of another sale, runs while nothing expires, then from just before the
 * first of those orders lapses until a few seconds after the last.
 */
public final class PaymentRun {

    static final int WAVES = 3;
    static final int SHOPPERS_PER_UNIT = 5;
    static final int WINDOW_SECONDS = 20;
    static final int PROBE_CONNECTIONS = 32;

    /** One wave: its shoppers, the units on sale when it began, its 202s, what its winners' payments came to. */
    record Wave(int wave, int shoppers, long unitsOnSale, long accepted, Map<String, Long> payments) {
    }

    /** {@code expired}: orders that expired during the second probe; {@code longestPassMs}: the longest pass. */
    record Expiry(int orders, long expired, double longestPassMs, Measured baseline, Measured duringExpiry) {
    }

    /** {@code returned}: units lapsed orders gave back; {@code resold}: the 202s of the waves after the first. */
    public record Result(long saleId, double payRatio, long payWindowSeconds, List<Wave> waves, long returned,
                         long resold, StatsReading settled, Expiry expiry, @JsonIgnore List<AnsweredClick> attempts) {

        /** The report's section ("payments" in report.json). */
        public Section section() {
            Section s = new Section("payments", "Payments: winners pay or let the window lapse, returned units sold "
                    + "again").text("Sale %d: %.0f %% of the winners pay within a %d s window, the others let it "
                    + "lapse; then the returned units went on sale to %d new shoppers per unit.", saleId,
                    100 * payRatio, payWindowSeconds, SHOPPERS_PER_UNIT)
                    .table("wave", "shoppers", "units on sale", "202 answers", "payments");
            waves.forEach(w -> s.row(w.wave(), f("%,d", w.shoppers()), f("%,d", w.unitsOnSale()),
                    f("%,d", w.accepted()), w.payments()));
            s.text("**%,d units came back from lapsed orders; %,d were sold again.** At the end: %,d paid, %,d "
                    + "expired, %s left in Redis.", returned, resold, settled.dbPaid(), settled.dbExpired(),
                    settled.redisRemaining());
            if (expiry != null) {
                s.text("### A running sale while %,d unpaid orders expire at once", expiry.orders()).table("probe (new "
                        + "buyers of another sale, " + PROBE_CONNECTIONS + " connections)", "answers/s", "p50", "p99",
                        "max");
                for (Measured m : List.of(expiry.baseline(), expiry.duringExpiry())) {
                    s.row(m.name(), f("%,.0f", m.rps()), f("%.2f ms", m.latency().p50()),
                            f("%.2f ms", m.latency().p99()), f("%.2f ms", m.latency().max()));
                }
                s.text("%,d orders expired during the second probe; the longest expiry pass took %.1f ms.",
                        expiry.expired(), expiry.longestPassMs());
            }
            return s.data(this);
        }
    }

    private PaymentRun() {
    }

    public static Result run(Scenario s, FlashSale.Result sale, Payers first) throws Exception {
        BenchOptions o = s.o();
        List<AnsweredClick> all = new ArrayList<>(sale.attempts());
        List<Wave> waves = new ArrayList<>(List.of(new Wave(1, o.users(), o.stock(), sale.accepted(), first.finish())));
        long nextUser = o.firstUser() + o.users();
        StatsReading settled = settled(s, sale.saleId(), all);
        for (int w = 2; w <= WAVES && settled.redisRemaining() != null && settled.redisRemaining() > 0; w++) {
            long onSale = settled.redisRemaining();
            int n = (int) Math.min(1_000_000, onSale * SHOPPERS_PER_UNIT);
            Users users = new Users(s.stack().tokenSecret(), nextUser, n);
            nextUser += n;
            Progress.say("wave " + w + ": " + onSale + " returned units on sale again to " + n + " new shoppers");
            try (Payers payers = new Payers(s.stack().edgeUrl(), users, o.payRatio(), o.payWindow())) {
                List<AnsweredClick> wave = new Crowd(users, sale.saleId(), s.stack().edgePort(), o.attempts(),
                        System.nanoTime()).onAccepted(payers::won).run(Math.min(o.connections(), n),
                        System.nanoTime() + o.duration().toNanos());
                all.addAll(wave);
                waves.add(new Wave(w, n, onSale, wave.stream().filter(AnsweredClick::accepted).count(), payers.finish()));
            }
            settled = settled(s, sale.saleId(), all);
        }
        Expiry expiry = o.expiryOrders() > 0 ? expiry(s, o.expiryOrders(), nextUser) : null;
        return new Result(sale.saleId(), o.payRatio(), o.payWindow().toSeconds(), waves, settled.dbExpired(),
                waves.stream().skip(1).mapToLong(Wave::accepted).sum(), settled, expiry, all);
    }

    /** Every order PAID or EXPIRED and every lapsed unit back in Redis, within the window and a minute. */
    private static StatsReading settled(Scenario s, long saleId, List<AnsweredClick> attempts) throws Exception {
        long accepted = attempts.stream().filter(AnsweredClick::accepted).count();
        StatsReading stats = s.await(saleId, x -> x.settled(accepted),
                s.o().payWindow().plusSeconds(60));
        if (stats == null) {
            throw new IllegalStateException("sale " + saleId + " did not settle: " + s.stats(saleId));
        }
        return stats;
    }

    /** {@code n} unpaid orders lapsing at once, users from {@code firstUser} on, and the probes around them. */
    private static Expiry expiry(Scenario s, int n, long firstUser) throws Exception {
        long lapsing = s.sale("expiry", n, Duration.ofSeconds(WINDOW_SECONDS));
        // No order is written before the crowd starts, and every one is by the time the writer has drained.
        Instant firstLapse = Instant.now().plusSeconds(WINDOW_SECONDS);
        long t0 = System.nanoTime();
        List<AnsweredClick> bought = new Crowd(new Users(s.stack().tokenSecret(), firstUser, n), lapsing,
                s.stack().edgePort(), 3, t0).run(s.o().connections(), t0 + Duration.ofMinutes(2).toNanos());
        long won = bought.stream().filter(AnsweredClick::accepted).count();
        if (won == 0 || s.await(lapsing, x -> x.drained(won), Duration.ofMinutes(2)) == null) {
            throw new IllegalStateException("the lapsing sale " + lapsing + " was not bought and written");
        }
        Instant lastLapse = Instant.now().plusSeconds(WINDOW_SECONDS);
        Progress.say("expiry impact: " + won + " unpaid orders of sale " + lapsing + " lapse until " + lastLapse);

        long probeSale = s.sale("expiry-probe", 1_000_000);
        Users users = new Users(s.stack().tokenSecret(), firstUser + n, 200_000);
        Measured baseline = probe(s, probeSale, users, 0, "probe, nothing expiring", Duration.ofSeconds(5));
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), firstLapse).toMillis() - 1000));
        Map<String, Double> before = s.meters().service();
        // Past every buyer the first probe had answered or in flight.
        Measured during = probe(s, probeSale, users, baseline.requests() + PROBE_CONNECTIONS,
                "probe, during the mass expiry", Duration.between(Instant.now(), lastLapse).plusSeconds(4));
        Map<String, Double> after = s.meters().service();
        return new Expiry((int) won, Meters.delta(before, after, "seckill_orders_expired_total"),
                after.getOrDefault("seckill_expiry_pass_seconds_max", 0.0) * 1000, baseline, during);
    }

    /** New buyers of the probe sale from the {@code from}-th on, one purchase each, for {@code length}. */
    private static Measured probe(Scenario s, long sale, Users users, long from, String name, Duration length)
            throws Exception {
        int port = s.stack().edgePort();
        return Scenario.steady(port, PROBE_CONNECTIONS, name, i -> {
            int u = (int) ((from + i) % users.size());
            return new LoadClient.Request(users.purchase(u, sale, port), users.id(u));
        }, length, null, false);
    }

    /**
     * The winners' payment behaviour: a share {@code ratio} of them, chosen by user id, pays through the edge as soon
     * as its order is CONFIRMED, on a virtual thread each; the others let the window lapse. Outcomes: PAID, LATE (the
     * window passed first), FAILED (no definite answer within the window and a minute), LAPSES.
     */
    public static final class Payers implements AutoCloseable {

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
        public void won(AnsweredClick a) {
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
}
