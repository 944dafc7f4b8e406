package dev.seckill.bench;

import org.HdrHistogram.Histogram;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static dev.seckill.bench.Section.f;

/**
 * The headline numbers of a flash sale, from its load log (every answer the crowd got), the edge's counters and the
 * sale's stats. Times are seconds from the crowd's first click.
 *
 * @param sellOutAt             when the stock was sold, as the buyers saw it: the arrival of the last 202 (every
 *                              unit decided and its order in Kafka); null if the stock was not sold out. Not the
 *                              first SOLD_OUT answer: Redis may run out long before the last winners hear their 202
 *                              (a slow Kafka send holds their answers, a SOLD_OUT is answered at once), and a time
 *                              to sell out with winners still waiting would be untrue
 * @param firstSoldOutAt        the first SOLD_OUT answer's arrival: the stock had run out in Redis by then
 * @param requestsAfterSellOut  clicks sent from the moment the first click that was answered SOLD_OUT was sent: the
 *                              edge can only have short-circuited clicks sent after that one (its answer sets the
 *                              flag), so the share below is at most 1
 * @param edgeShareAfterSellOut the edge's short-circuit counter over the run / requestsAfterSellOut
 * @param drainSeconds          from the last 202 until the stats showed every accepted order in MySQL and no
 *                              consumer lag (polled every 100 ms)
 * @param drainedAt             that moment, in seconds since the first click (null if it did not drain)
 */
record FlashSaleNumbers(long saleId, int stock, long requests, double seconds, double rps, Measured.Latency latency,
                        Map<String, Long> outcomes, long accepted, long winners, Double sellOutAt, Double firstSoldOutAt,
                        long requestsUntilSellOut, double rpsUntilSellOut, Measured.Latency latencyUntilSellOut,
                        long requestsAfterSellOut, double rpsAfterSellOut, long edgeShortCircuits,
                        long edgeRateLimited, Double edgeShareAfterSellOut, Double drainSeconds,
                        Double drainedAt) {

    private static final long HIGHEST_MICROS = 120_000_000L;

    static FlashSaleNumbers of(FlashSale.Result r, Timeline t, int stock) {
        long lastAccept = -1;
        long firstSoldOutEnd = -1;
        long firstSoldOutStart = -1;
        long lastEnd = 0;
        Set<Long> winners = new HashSet<>();
        for (Attempt a : r.attempts()) {
            long end = a.startNanos() + a.latencyNanos();
            lastEnd = Math.max(lastEnd, end);
            if (a.accepted()) {
                lastAccept = Math.max(lastAccept, end);
                winners.add(a.userId());
            } else if ("SOLD_OUT".equals(a.code())) {
                firstSoldOutEnd = firstSoldOutEnd < 0 ? end : Math.min(firstSoldOutEnd, end);
                firstSoldOutStart = firstSoldOutStart < 0 ? a.startNanos() : Math.min(firstSoldOutStart, a.startNanos());
            }
        }
        Long remaining = r.finalStats().redisRemaining();
        boolean soldOut = remaining != null && remaining == 0;
        long sellOut = lastAccept < 0 ? firstSoldOutEnd : lastAccept;
        long cut = !soldOut ? Long.MAX_VALUE : firstSoldOutStart >= 0 ? firstSoldOutStart : sellOut;

        Histogram before = new Histogram(HIGHEST_MICROS, 3);
        long after = 0;
        for (Attempt a : r.attempts()) {
            if (a.startNanos() < cut) {
                before.recordValue(Math.min(HIGHEST_MICROS, Math.max(1, a.latencyNanos() / 1000)));
            } else {
                after++;
            }
        }
        double seconds = lastEnd / 1e9;
        double cutSeconds = soldOut ? cut / 1e9 : seconds;
        long shortCircuits = delta(r, Sampler.SHORT_CIRCUITS);
        long drainFrom = Math.max(lastAccept, 0);
        // The sampler polls every 100 ms: it may see the drain before the last 202 reached the client.
        long drainedAt = r.drainedAt() < 0 ? -1 : Math.max(r.drainedAt() - r.t0(), drainFrom);
        Double drain = drainedAt < 0 ? null : (drainedAt - drainFrom) / 1e9;
        return new FlashSaleNumbers(r.saleId(), stock, r.attempts().size(), seconds,
                seconds > 0 ? r.attempts().size() / seconds : 0, Measured.Latency.of(t.all), t.outcomes,
                r.accepted(), winners.size(), soldOut ? sellOut / 1e9 : null,
                firstSoldOutEnd < 0 ? null : firstSoldOutEnd / 1e9,
                before.getTotalCount(), cutSeconds > 0 ? before.getTotalCount() / cutSeconds : 0,
                Measured.Latency.of(before), after, seconds > cutSeconds ? after / (seconds - cutSeconds) : 0,
                shortCircuits, delta(r, "seckill_edge_rate_limited_total"),
                soldOut && after > 0 ? (double) shortCircuits / after : null, drain,
                drainedAt < 0 ? null : drainedAt / 1e9);
    }

    /** The report's flash-sale section; {@code shortCircuitCeiling}: the same client's short-circuit ceiling, or null. */
    Section section(Double shortCircuitCeiling) {
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
                            requestsUntilSellOut, rpsUntilSellOut, latencyUntilSellOut.p50(), latencyUntilSellOut.p99()))
                    .row("clicks sent after the sell-out", f("%,d (%,.0f req/s)", requestsAfterSellOut, rpsAfterSellOut))
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
        return s.text("![answers per second by outcome](%s)", Report.THROUGHPUT_PNG)
                .text("![latency percentiles over time](%s)", Report.LATENCY_PNG).data(this);
    }

    private static long delta(FlashSale.Result r, String series) {
        return Math.round(r.edgeAfter().getOrDefault(series, 0.0) - r.edgeBefore().getOrDefault(series, 0.0));
    }
}
