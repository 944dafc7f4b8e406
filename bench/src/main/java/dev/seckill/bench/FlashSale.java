package dev.seckill.bench;

import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The flash sale itself: a new sale with {@code stock} units, the whole {@link Crowd} let loose on it through the
 * edge over {@code connections} connections (bounded by {@code duration}), then the wait for the writer to catch up.
 * The sampler watches the sale meanwhile, so the drain is seen as it happens.
 */
final class FlashSale {

    /**
     * What happened. Times are System.nanoTime(); {@code drainedAt} is when the writer had caught up with every
     * accepted order (-1 if it did not within the wait).
     */
    record Result(long saleId, long t0, long end, List<Attempt> attempts, Map<String, Double> edgeBefore,
                  Map<String, Double> edgeAfter, Admin.SaleStats finalStats, long drainedAt) {

        long accepted() {
            return attempts.stream().filter(Attempt::accepted).count();
        }
    }

    private FlashSale() {
    }

    /** @param payers the winners' payment behaviour, or null: the orders then wait out the default window */
    static Result run(Stack stack, Admin admin, Sampler sampler, Users users, BenchOptions o, Payers payers)
            throws IOException, InterruptedException {
        long sale = admin.createSale("bench-flash-sale-" + System.currentTimeMillis(), o.stock(), o.payWindow());
        Map<String, Double> before = admin.edgeMetrics();
        sampler.watch(sale);
        sampler.mark("flash sale");
        try {
            long t0 = System.nanoTime();
            Crowd crowd = new Crowd(users, sale, stack.edgePort(), o.attempts(), t0);
            Bench.say("flash sale " + sale + ": " + o.stock() + " units, " + users.size() + " users x up to "
                    + o.attempts() + " clicks, " + o.connections() + " connections");
            LoadClient.run(new InetSocketAddress("127.0.0.1", stack.edgePort()), o.connections(),
                    payers == null ? crowd : new PayingCrowd(crowd, payers), t0 + o.duration().toNanos(),
                    Duration.ofSeconds(30));
            long end = System.nanoTime();
            // The sale's CPU window ends on a sample (mark() began it on one).
            sampler.sampleNow();
            Map<String, Double> after = admin.edgeMetrics();
            List<Attempt> attempts = crowd.attempts();
            long accepted = attempts.stream().filter(Attempt::accepted).count();
            Bench.say("flash sale " + sale + ": " + attempts.size() + " answers in " + (end - t0) / 1_000_000
                    + " ms, " + accepted + " accepted; waiting for the writer");
            Admin.SaleStats stats = admin.awaitDrained(sale, accepted, Duration.ofSeconds(120));
            long drainedAt = stats == null ? -1 : System.nanoTime();
            // The sampler may have seen the drain earlier, while the crowd was still clicking.
            for (Sampler.SaleSample s : sampler.saleSamples()) {
                if (s.saleId() == sale && s.stats() != null && s.stats().drained(accepted) && s.nanos() >= t0) {
                    drainedAt = drainedAt < 0 ? s.nanos() : Math.min(drainedAt, s.nanos());
                    break;
                }
            }
            return new Result(sale, t0, end, attempts, before, after, stats == null ? admin.stats(sale) : stats, drainedAt);
        } finally {
            sampler.watch(-1);
        }
    }
}
