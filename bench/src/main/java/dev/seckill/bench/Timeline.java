package dev.seckill.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/** A load run's answers by outcome ("202 QUEUED", "0" for none) and latency (HdrHistogram), per time bucket and all. */
final class Timeline {

    private static final long HIGHEST_MICROS = 120_000_000L;
    private static final long[] BUCKET_CHOICES = {100, 250, 500, 1000, 2000, 5000, 10_000};

    /** One bucket: its start (seconds from the run's start), answers by outcome, latency percentiles (ms). */
    record Bucket(double at, Map<String, Long> outcomes, Measured.Latency latency) {
    }

    final long bucketMillis;
    final List<Bucket> buckets = new ArrayList<>();
    final Histogram all = new Histogram(HIGHEST_MICROS, 3);
    final Map<String, Long> outcomes = new TreeMap<>();

    Timeline(Collection<Attempt> attempts) {
        long span = attempts.stream().mapToLong(Timeline::endMillis).max().orElse(0);
        bucketMillis = LongStream.of(BUCKET_CHOICES).filter(b -> span / b <= 120).findFirst().orElse(10_000);
        Map<Long, List<Attempt>> byBucket = attempts.stream().collect(Collectors.groupingBy(a -> endMillis(a) / bucketMillis));
        for (long i = 0; i <= span / bucketMillis; i++) {
            IntCountsHistogram h = new IntCountsHistogram(HIGHEST_MICROS, 2);
            Map<String, Long> counts = new LinkedHashMap<>();
            for (Attempt a : byBucket.getOrDefault(i, List.of())) {
                counts.merge(outcome(a), 1L, Long::sum);
                h.recordValue(micros(a));
                all.recordValue(micros(a));
                outcomes.merge(outcome(a), 1L, Long::sum);
            }
            buckets.add(new Bucket(i * bucketMillis / 1000.0, counts, Measured.Latency.of(h)));
        }
    }

    static String outcome(Attempt a) {
        return a.code() == null ? Integer.toString(a.status()) : a.status() + " " + a.code();
    }

    /** Answers per second in a bucket, of one outcome (or all when null). */
    double rate(Bucket b, String outcome) {
        long n = b.outcomes().entrySet().stream().filter(e -> outcome == null || e.getKey().equals(outcome))
                .mapToLong(Map.Entry::getValue).sum();
        return n * 1000.0 / bucketMillis;
    }

    private static long endMillis(Attempt a) {
        return (a.startNanos() + a.latencyNanos()) / 1_000_000;
    }

    private static long micros(Attempt a) {
        return Math.min(HIGHEST_MICROS, Math.max(1, a.latencyNanos() / 1000));
    }
}
