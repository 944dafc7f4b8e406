package dev.seckill.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

/** A load run's answers by outcome ("202 QUEUED", "0" for none) and latency (HdrHistogram), per time bucket and all. */
final class Timeline {

    private static final long HIGHEST_MICROS = 120_000_000L;

    /** One bucket: its start (seconds from the run's start), answers by outcome, latency percentiles (ms). */
    record Bucket(double at, Map<String, Long> outcomes, Measured.Latency latency) {
    }

    final long bucketMillis;
    final List<Bucket> buckets = new ArrayList<>();
    final Histogram all = new Histogram(HIGHEST_MICROS, 3);
    final Map<String, Long> outcomes = new TreeMap<>();

    Timeline(List<Attempt> attempts) {
        long span = attempts.stream().mapToLong(Timeline::endMillis).max().orElse(0);
        bucketMillis = LongStream.of(100, 250, 500, 1000, 2000, 5000).filter(b -> span / b <= 120).findFirst()
                .orElse(10_000);
        List<Map<String, Long>> counts = new ArrayList<>();
        List<IntCountsHistogram> latencies = new ArrayList<>();
        for (long i = 0; i <= span / bucketMillis; i++) {
            counts.add(new LinkedHashMap<>());
            latencies.add(new IntCountsHistogram(HIGHEST_MICROS, 2));
        }
        for (Attempt a : attempts) {
            int i = (int) (endMillis(a) / bucketMillis);
            long micros = Math.min(HIGHEST_MICROS, Math.max(1, a.latencyNanos() / 1000));
            counts.get(i).merge(outcome(a), 1L, Long::sum);
            outcomes.merge(outcome(a), 1L, Long::sum);
            latencies.get(i).recordValue(micros);
            all.recordValue(micros);
        }
        for (int i = 0; i < counts.size(); i++) {
            buckets.add(new Bucket(i * bucketMillis / 1000.0, counts.get(i), Measured.Latency.of(latencies.get(i))));
        }
    }

    static String outcome(Attempt a) {
        return a.code() == null ? Integer.toString(a.status()) : a.status() + " " + a.code();
    }

    /** Answers per second in a bucket, of one outcome (or all when null). */
    double rate(Bucket b, String outcome) {
        return b.outcomes().entrySet().stream().filter(e -> outcome == null || e.getKey().equals(outcome))
                .mapToLong(Map.Entry::getValue).sum() * 1000.0 / bucketMillis;
    }

    private static long endMillis(Attempt a) {
        return (a.startNanos() + a.latencyNanos()) / 1_000_000;
    }
}
