package dev.seckill.bench;

import org.HdrHistogram.Histogram;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

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

    private static long delta(FlashSale.Result r, String series) {
        return Math.round(r.edgeAfter().getOrDefault(series, 0.0) - r.edgeBefore().getOrDefault(series, 0.0));
    }
}
