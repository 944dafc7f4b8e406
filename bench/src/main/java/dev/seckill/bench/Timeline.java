package dev.seckill.bench;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A load run seen over time: the answers by outcome in fixed buckets of completion time, and each bucket's latency
 * percentiles from its own HdrHistogram; plus the whole run's histogram. Outcomes are "status CODE" (202 QUEUED,
 * 410 SOLD_OUT, ...; 0 NO_ANSWER for a request that got none).
 */
final class Timeline {

    private static final long HIGHEST_MICROS = 120_000_000L;
    private static final long[] BUCKET_CHOICES = {100, 250, 500, 1000, 2000, 5000, 10_000};

    /** One bucket: its start (seconds from the run's start), answers by outcome, latency percentiles (ms). */
    record Bucket(double at, Map<String, Long> outcomes, Measured.Latency latency) {
        long answers() {
            return outcomes.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    final long bucketMillis;
    final List<Bucket> buckets = new ArrayList<>();
    final Histogram all = new Histogram(HIGHEST_MICROS, 3);
    final Map<String, Long> outcomes = new TreeMap<>();

    Timeline(Collection<Attempt> attempts) {
        long span = attempts.stream().mapToLong(a -> a.startNanos() + a.latencyNanos()).max().orElse(0) / 1_000_000;
        long pick = BUCKET_CHOICES[BUCKET_CHOICES.length - 1];
        for (long b : BUCKET_CHOICES) {
            if (span / b <= 120) {
                pick = b;
                break;
            }
        }
        bucketMillis = pick;
        int n = (int) (span / bucketMillis) + 1;
        List<Map<String, Long>> counts = new ArrayList<>();
        List<IntCountsHistogram> hist = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counts.add(new LinkedHashMap<>());
            hist.add(new IntCountsHistogram(HIGHEST_MICROS, 2));
        }
        for (Attempt a : attempts) {
            int i = (int) ((a.startNanos() + a.latencyNanos()) / 1_000_000 / bucketMillis);
            String outcome = outcome(a);
            long micros = Math.min(HIGHEST_MICROS, Math.max(1, a.latencyNanos() / 1000));
            counts.get(i).merge(outcome, 1L, Long::sum);
            hist.get(i).recordValue(micros);
            all.recordValue(micros);
            outcomes.merge(outcome, 1L, Long::sum);
        }
        for (int i = 0; i < n; i++) {
            buckets.add(new Bucket(i * bucketMillis / 1000.0, counts.get(i), Measured.Latency.of(hist.get(i))));
        }
    }

    static String outcome(Attempt a) {
        return a.code() == null ? Integer.toString(a.status()) : a.status() + " " + a.code();
    }

    /** Answers per second in each bucket, for one outcome (or all when null). */
    double rate(Bucket b, String outcome) {
        long n = outcome == null ? b.answers() : b.outcomes().getOrDefault(outcome, 0L);
        return n * 1000.0 / bucketMillis;
    }
}
