package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.measure.StatsReading;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.measure.StatsWatch;
import dev.seckill.bench.load.Timeline;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Section;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * The flash sale: a new sale of {@code stock} units, the whole {@link Crowd} let loose on it through the edge, the
 * wait for the writer ({@link #run}); then its numbers ({@link #of}), in seconds from the crowd's first click.
 *
 * @param sellOutAt             the arrival of the last 202 (every unit decided, its order in Kafka), null if not sold
 *                              out; not the first SOLD_OUT, which can come long before the last winners hear their 202
 * @param firstSoldOutAt        the first SOLD_OUT answer's arrival: the stock had run out in Redis by then
 * @param requestsAfterSellOut  clicks sent from when the first click answered SOLD_OUT was: the edge can only have
 *                              short-circuited clicks sent after that one, so the share below is at most 1
 * @param edgeShareAfterSellOut the edge's short-circuit counter over the run / requestsAfterSellOut
 * @param drainSeconds          from the last 202 until every accepted order was in MySQL and no consumer lag;
 *                              {@code drainedAt} that moment (both null if it did not drain)
 */
public record FlashSale(long saleId, int stock, long requests, double seconds, double rps, Measured.Latency latency,
                 Map<String, Long> outcomes, long accepted, long winners, Double sellOutAt, Double firstSoldOutAt,
                 long requestsUntilSellOut, double rpsUntilSellOut, Measured.Latency latencyUntilSellOut,
                 long requestsAfterSellOut, double rpsAfterSellOut, long edgeShortCircuits, long edgeRateLimited,
                 Double edgeShareAfterSellOut, Double drainSeconds, Double drainedAt) {

    /**
     * What the run saw, times in System.nanoTime(); {@code drainedAt} -1 if the writer did not catch up in time;
     * {@code atRest}: each part's CPU over {@link #AT_REST} before the crowd, no request in flight.
     */
    public record Result(long saleId, long t0, long end, List<AnsweredClick> attempts, Map<String, Double> edgeBefore,
                  Map<String, Double> edgeAfter, StatsReading finalStats, long drainedAt,
                  Sampler.Cpu atRest) {

        public long accepted() {
            return attempts.stream().filter(AnsweredClick::accepted).count();
        }
    }

    public static final Duration AT_REST = Duration.ofSeconds(3);
    public static final String AT_REST_WINDOW = "at rest, before the flash sale";

    /**
     * The bench's step: the flash sale, and with --pay-ratio its payments; its check leads the report's. Without
     * payments every user of the crowd tried, so the stock went to exactly min(stock, users who got an answer); with
     * them lapsed units are sold again, so the sale's rows are no longer that.
     */
    public static List<Section> step(Scenario s) throws Exception {
        BenchOptions o = s.o();
        Result sale;
        PaymentRun.Result payments = null;
        if (o.payments()) {
            try (PaymentRun.Payers payers = new PaymentRun.Payers(s.stack().edgeUrl(), s.users(), o.payRatio(),
                    o.payWindow())) {
                sale = run(s, payers);
                payments = PaymentRun.run(s, sale, payers);
                s.check("flash sale", sale.saleId(), payments.attempts(), null);
            }
        } else {
            sale = run(s, null);
            Progress.say("checking the invariants in MySQL and Redis");
            s.check("flash sale", sale.saleId(), sale.attempts(), sale.attempts().stream()
                    .filter(a -> a.status() != 0).mapToLong(AnsweredClick::userId).distinct().count());
        }
        s.checks().addFirst(s.checks().removeLast());
        Timeline timeline = new Timeline(sale.attempts());
        FlashSale numbers = of(sale, timeline, o.stock());
        s.found().flashSale(sale, timeline, numbers, payments);
        Section section = numbers.section(s.found().shortCircuitCeiling(), o.connections());
        return payments == null ? List.of(section) : List.of(section, payments.section());
    }

    /** @param payers the winners' payment behaviour, or null: the orders then wait out the default window */
    public static Result run(Scenario s, PaymentRun.Payers payers) throws Exception {
        BenchOptions o = s.o();
        long sale = s.sale("flash-sale", o.stock(), o.payWindow());
        // What the stack spends with nothing to do (its timers, the last section's leftovers): a measurement
        // window, which the capacity plan takes from the machine before the requests' costs (docs/capacity.md).
        long quiet = s.sampler().open();
        Thread.sleep(AT_REST.toMillis());
        Sampler.Cpu atRest = s.sampler().close(AT_REST_WINDOW, quiet, 0).asCpu();
        Map<String, Double> before = s.meters().edge();
        s.sampler().mark("flash sale");
        // The writer may drain while the crowd still clicks: the watch sees when.
        try (StatsWatch watch = new StatsWatch(s.sales(), s.stack().adminUrl(), sale)) {
            long t0 = System.nanoTime();
            Crowd crowd = new Crowd(s.users(), sale, s.stack().edgePort(), o.attempts(), t0);
            Progress.say("flash sale " + sale + ": " + o.stock() + " units, " + s.users().size() + " users x up to "
                    + o.attempts() + " clicks, " + o.connections() + " connections");
            List<AnsweredClick> attempts = (payers == null ? crowd : crowd.onAccepted(payers::won))
                    .run(o.connections(), t0 + o.duration().toNanos());
            long end = System.nanoTime();
            Map<String, Double> after = s.meters().edge();
            long accepted = attempts.stream().filter(AnsweredClick::accepted).count();
            Progress.say("flash sale " + sale + ": " + attempts.size() + " answers in " + (end - t0) / 1_000_000
                    + " ms, " + accepted + " accepted; waiting for the writer");
            StatsReading stats = s.await(sale, x -> x.drained(accepted), Duration.ofSeconds(120));
            long drained = Math.min(stats == null ? Long.MAX_VALUE : System.nanoTime(),
                    watch.firstAt(x -> x.drained(accepted)));
            return new Result(sale, t0, end, attempts, before, after, stats == null ? s.stats(sale) : stats,
                    drained == Long.MAX_VALUE ? -1 : drained, atRest);
        }
    }

    public static FlashSale of(Result r, Timeline t, int stock) {
        List<AnsweredClick> all = r.attempts();
        long lastEnd = all.stream().mapToLong(FlashSale::end).max().orElse(0);
        long lastAccept = all.stream().filter(AnsweredClick::accepted).mapToLong(FlashSale::end).max().orElse(-1);
        List<AnsweredClick> refused = all.stream().filter(a -> !a.accepted() && "SOLD_OUT".equals(a.code())).toList();
        long firstSoldOutEnd = refused.stream().mapToLong(FlashSale::end).min().orElse(-1);
        long firstSoldOutStart = refused.stream().mapToLong(AnsweredClick::startNanos).min().orElse(-1);
        Long remaining = r.finalStats().redisRemaining();
        boolean soldOut = remaining != null && remaining == 0;
        long sellOut = lastAccept < 0 ? firstSoldOutEnd : lastAccept;
        long cut = !soldOut ? Long.MAX_VALUE : firstSoldOutStart >= 0 ? firstSoldOutStart : sellOut;
        Timeline before = new Timeline(all.stream().filter(a -> a.startNanos() < cut).toList());
        long untilCut = before.all.getTotalCount();
        long after = all.size() - untilCut;
        double seconds = lastEnd / 1e9;
        double cutSeconds = soldOut ? cut / 1e9 : seconds;
        long shortCircuits = Meters.delta(r.edgeBefore(), r.edgeAfter(), Sampler.SHORT_CIRCUITS);
        long drainFrom = Math.max(lastAccept, 0);
        // The sampler polls every 100 ms: it may see the drain before the last 202 reached the client.
        long drainedAt = r.drainedAt() < 0 ? -1 : Math.max(r.drainedAt() - r.t0(), drainFrom);
        return new FlashSale(r.saleId(), stock, all.size(), seconds, seconds > 0 ? all.size() / seconds : 0,
                Measured.Latency.of(t.all), t.outcomes, r.accepted(),
                all.stream().filter(AnsweredClick::accepted).mapToLong(AnsweredClick::userId).distinct().count(),
                soldOut ? sellOut / 1e9 : null, firstSoldOutEnd < 0 ? null : firstSoldOutEnd / 1e9, untilCut,
                cutSeconds > 0 ? untilCut / cutSeconds : 0, Measured.Latency.of(before.all), after,
                seconds > cutSeconds ? after / (seconds - cutSeconds) : 0, shortCircuits,
                Meters.delta(r.edgeBefore(), r.edgeAfter(), "seckill_edge_rate_limited_total"),
                soldOut && after > 0 ? (double) shortCircuits / after : null,
                drainedAt < 0 ? null : (drainedAt - drainFrom) / 1e9, drainedAt < 0 ? null : drainedAt / 1e9);
    }

    /**
     * The report's section and its latency targets; {@code shortCircuitCeiling}: the same client's short-circuit
     * ceiling, or null.
     */
    public Section section(Double shortCircuitCeiling, int connections) {
        Section s = new Section("flashSale", "The flash sale").table("", "")
                .row("answers", f("%,d in %.2f s: **%,.0f req/s**", requests, seconds, rps))
                .row("latency (all answers)", f("p50 %.2f ms · p90 %.2f ms · **p99 %.2f ms** · max %.2f ms",
                        latency.p50(), latency.p90(), latency.p99(), latency.max()));
        if (sellOutAt == null) {
            s.row("time to sell out", f("not sold out: %,d of %,d units taken", accepted, stock));
        } else {
            s.row("time to sell out", f("**%.3f s**: the last 202 reached its buyer (the stock had run out in Redis by "
                            + "%s s, the first SOLD_OUT answer)", sellOutAt, Section.n("%.3f", firstSoldOutAt)))
                    .row("clicks sent before the sell-out", f("%,d (%,.0f req/s) · p50 %.2f ms · p99 %.2f ms",
                            requestsUntilSellOut, rpsUntilSellOut, latencyUntilSellOut.p50(),
                            latencyUntilSellOut.p99()))
                    .row("clicks sent after the sell-out",
                            f("%,d (%,.0f req/s)", requestsAfterSellOut, rpsAfterSellOut))
                    .row("answered by the edge after the sell-out", f("**%.1f %%** (%,d short-circuits / %,d clicks)",
                            100 * edgeShareAfterSellOut, edgeShortCircuits, requestsAfterSellOut));
            if (shortCircuitCeiling != null) {
                s.row("the flood after the sell-out against the short-circuit ceiling of the same client",
                        f("%.2f x (%,.0f vs %,.0f req/s)", rpsAfterSellOut / shortCircuitCeiling, rpsAfterSellOut,
                                shortCircuitCeiling));
            }
        }
        s.row("accepted (202) / distinct winners", f("%,d / %,d of %,d units", accepted, winners, stock))
                .row("refused by the edge's per-IP limit (429)", f("%,d", edgeRateLimited))
                .row("writer drain time", drainSeconds == null ? "**did not drain within 120 s**"
                        : f("**%.2f s** from the last 202 until every accepted order was in MySQL and the lag 0 "
                        + "(at %.2f s)", drainSeconds, drainedAt))
                .table("outcome", "answers", "share");
        outcomes.forEach((k, v) -> s.row(k, f("%,d", v), f("%.2f %%", 100.0 * v / Math.max(1, requests))));
        if (sellOutAt != null) {
            s.millis("flash sale: clicks sent before the sell-out, p99", latencyUntilSellOut.p99(), 30);
        }
        return s.millis("flash sale p99 (every answer) at " + connections + " connections", latency.p99(), 20)
                .text("![answers per second by outcome](%s)", BenchReport.THROUGHPUT_PNG)
                .text("![latency percentiles over time](%s)", BenchReport.LATENCY_PNG).data(this);
    }

    private static long end(AnsweredClick a) {
        return a.startNanos() + a.latencyNanos();
    }
}
