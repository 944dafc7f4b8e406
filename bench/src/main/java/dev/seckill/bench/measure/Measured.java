package dev.seckill.bench.measure;

import dev.seckill.bench.report.Section;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static dev.seckill.bench.report.Section.round;

/**
 * One measured load: answers in how long, by status and by {@link Answer#kind} (by status alone for wrk and
 * redis-benchmark, which see no bodies), latencies in ms; {@code inService}: for loads through the service, the mean
 * time its purchases spent in the Redis script and in the Kafka send meanwhile (from its metrics).
 */
public record Measured(String name, String generator, long requests, double seconds, double rps,
                       Map<String, Long> byStatus, Map<String, Long> byKind, Latency latency,
                       Map<String, Double> inService) {

    /**
     * A ceiling counts only the answers it is named after (the accepted purchase path its {@code 202 QUEUED}, the
     * trivial proxied route the service's {@code 200 UP}, ...): one whose named answers are under this share of its
     * answers measures something else (the edge's own 404 or 429, say), and the bench fails with its breakdown.
     */
    static final double NAMED_SHARE = 0.95;

    /** The bench's latency histograms count microseconds, up to a minute (the load client times out at 30 s). */
    public static Histogram histogram() {
        return new Histogram(60_000_000L, 3);
    }

    public static void record(AbstractHistogram us, long nanos) {
        us.recordValue(Math.min(us.getHighestTrackableValue(), Math.max(1, nanos / 1000)));
    }

    public Measured withInService(Map<String, Double> means) {
        return new Measured(name, generator, requests, seconds, rps, byStatus, byKind, latency, means);
    }

    public long count(String status) {
        return byStatus.getOrDefault(status, 0L);
    }

    /** The share of the answers (by {@link Answer#kind}) that are one of {@code named}; 0 without answers. */
    public double share(Set<String> named) {
        long all = byKind.values().stream().mapToLong(Long::longValue).sum();
        long ok = named.stream().mapToLong(k -> byKind.getOrDefault(k, 0L)).sum();
        return all == 0 ? 0 : (double) ok / all;
    }

    /** This ceiling, if at least {@link #NAMED_SHARE} of its answers are the ones it is {@code named} after. */
    public Measured require(Set<String> named) {
        double share = share(named);
        if (share < NAMED_SHARE) {
            throw new IllegalStateException(Section.f("the ceiling \"%s\" counts %s, but only %.1f %% of its %,d "
                    + "answers were (at least %.0f %% must be): %s", name, named, 100 * share, requests,
                    100 * NAMED_SHARE, byKind));
        }
        return this;
    }

    public record Latency(double p50, double p90, double p99, double max, double mean) {

        /** Percentiles of a histogram recorded in microseconds; all 0 when it is empty. */
        public static Latency of(AbstractHistogram us) {
            return us.getTotalCount() == 0 ? new Latency(0, 0, 0, 0, 0) : new Latency(us.getValueAtPercentile(50) / 1e3,
                    us.getValueAtPercentile(90) / 1e3, us.getValueAtPercentile(99) / 1e3, us.getMaxValue() / 1e3,
                    us.getMean() / 1e3);
        }
    }

    /**
     * One ceiling over another in interleaved rounds: each round's two sides run back to back under one background
     * load, so the median of the rounds' ratios counts; the ratio of the two best rounds is kept beside it.
     */
    public record Ratio(String name, double median, List<Double> rounds, double ofBest) {

        public static Ratio of(List<Measured> all, String numerator, String denominator) {
            double[] top = all.stream().filter(m -> m.name().equals(numerator)).mapToDouble(Measured::rps).toArray();
            double[] bottom = all.stream().filter(m -> m.name().equals(denominator)).mapToDouble(Measured::rps)
                    .toArray();
            List<Double> rounds = IntStream.range(0, Math.min(top.length, bottom.length))
                    .mapToObj(i -> round(top[i] / bottom[i])).toList();
            double[] s = rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = s.length == 0 ? 0 : (s[(s.length - 1) / 2] + s[s.length / 2]) / 2;
            return new Ratio(numerator + " / " + denominator, round(median), rounds,
                    round(Arrays.stream(top).max().orElse(Double.NaN)
                            / Arrays.stream(bottom).max().orElse(Double.NaN)));
        }
    }
}
