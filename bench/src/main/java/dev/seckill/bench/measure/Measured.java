package dev.seckill.bench.measure;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * One measured load: answers in how long, by status and by {@link Answer#kind} (by status alone for wrk and
 * redis-benchmark, which see no bodies), latencies in ms; {@code inService}: for loads through the service, the mean
 * time its purchases spent in the Redis script and in the Kafka send meanwhile (from its metrics).
 */
public record Measured(String name, String generator, long requests, double seconds, double rps, Map<String,
        Long> byStatus,
                Map<String, Long> byKind, Latency latency, Map<String, Double> inService) {

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

    public record Latency(double p50, double p90, double p99, double max, double mean) {

        /** Percentiles of a histogram recorded in microseconds; all 0 when it is empty. */
        public static Latency of(AbstractHistogram us) {
            return us.getTotalCount() == 0 ? new Latency(0, 0, 0, 0, 0) : new Latency(us.getValueAtPercentile(50) / 1e3,
                    us.getValueAtPercentile(90) / 1e3, us.getValueAtPercentile(99) / 1e3, us.getMaxValue() / 1e3,
                    us.getMean() / 1e3);
        }
    }
}
