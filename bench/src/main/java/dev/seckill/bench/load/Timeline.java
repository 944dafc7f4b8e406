package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/** A load run's answers by {@link Answer#kind} and latency (HdrHistogram), per time bucket and in all. */
public final class Timeline {

    /** One bucket: its start (seconds from the run's start), answers per second and by kind, latency (ms). */
    public record Bucket(double at, double answersPerSecond, Map<String, Long> outcomes,
                         @JsonProperty("latencyMs") Measured.Latency latency) {
    }

    public final long bucketMillis;
    public final List<Bucket> buckets = new ArrayList<>();
    public final Histogram all = Measured.histogram();
    public final Map<String, Long> outcomes;

    public Timeline(List<AnsweredClick> attempts) {
        long span = attempts.stream().mapToLong(Timeline::endMillis).max().orElse(0);
        bucketMillis = LongStream.of(100, 250, 500, 1000, 2000, 5000).filter(b -> span / b <= 120).findFirst()
                .orElse(10_000);
        Map<Long, List<AnsweredClick>> byBucket = attempts.stream()
                .collect(Collectors.groupingBy(a -> endMillis(a) / bucketMillis));
        for (long i = 0; i <= span / bucketMillis; i++) {
            List<AnsweredClick> in = byBucket.getOrDefault(i, List.of());
            // Two digits per bucket: a hundred full histograms would take megabytes.
            IntCountsHistogram us = latency(in, new IntCountsHistogram(all.getHighestTrackableValue(), 2));
            buckets.add(new Bucket(i * bucketMillis / 1000.0, in.size() * 1000.0 / bucketMillis, outcomes(in),
                    Measured.Latency.of(us)));
        }
        latency(attempts, all);
        outcomes = outcomes(attempts);
    }

    /** Answers per second of one outcome in a bucket. */
    public double rate(Bucket b, String outcome) {
        return b.outcomes().getOrDefault(outcome, 0L) * 1000.0 / bucketMillis;
    }

    /** Answers by {@link Answer#kind}, in the kinds' order. */
    public static Map<String, Long> outcomes(List<AnsweredClick> attempts) {
        return attempts.stream().collect(Collectors.groupingBy(AnsweredClick::kind, TreeMap::new, Collectors.counting()));
    }

    /** The latency of every attempt, in the bench's histogram. */
    public static Measured.Latency latency(List<AnsweredClick> attempts) {
        return Measured.Latency.of(latency(attempts, Measured.histogram()));
    }

    private static <H extends AbstractHistogram> H latency(List<AnsweredClick> attempts, H us) {
        attempts.forEach(a -> Measured.record(us, a.latencyNanos()));
        return us;
    }

    private static long endMillis(AnsweredClick a) {
        return (a.startNanos() + a.latencyNanos()) / 1_000_000;
    }
}
