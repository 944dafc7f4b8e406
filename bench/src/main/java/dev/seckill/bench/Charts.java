package dev.seckill.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The report's charts, as SVG text: throughput by outcome, latency percentiles, memory. */
final class Charts {

    private static final int SHOWN_OUTCOMES = 6;
    private static final long MIN_CPU_STEP_NANOS = 200_000_000L;
    private static final int CPU_POINTS = 150;

    private final Timeline t;
    private final List<Sampler.Sample> samples;
    private final Map<String, Long> marks;
    private final FlashSaleNumbers numbers;
    private final double[] xs;

    Charts(Timeline t, List<Sampler.Sample> samples, Map<String, Long> marks, FlashSaleNumbers numbers) {
        this.t = t;
        this.samples = samples;
        this.marks = marks;
        this.numbers = numbers;
        this.xs = t.buckets.stream().mapToDouble(Timeline.Bucket::at).toArray();
    }

    /** Answers per second, stacked by outcome (the largest few; the rest as "other"). */
    String throughput() {
        List<String> top = t.outcomes.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .limit(SHOWN_OUTCOMES).map(Map.Entry::getKey).toList();
        Svg svg = new Svg("Flash sale: answers per second by outcome (" + t.bucketMillis + " ms buckets)",
                "seconds since the first click", "answers / s", xs).stacked();
        for (String o : top) {
            svg.series(o, rates(o));
        }
        if (t.outcomes.size() > top.size()) {
            double[] other = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                Timeline.Bucket b = t.buckets.get(i);
                long n = b.outcomes().entrySet().stream().filter(e -> !top.contains(e.getKey()))
                        .mapToLong(Map.Entry::getValue).sum();
                other[i] = n * 1000.0 / t.bucketMillis;
            }
            svg.series("other", other);
        }
        return marked(svg).render();
    }

    /** Latency percentiles per bucket, log scale. */
    String latency() {
        Svg svg = new Svg("Flash sale: latency per " + t.bucketMillis + " ms bucket (HdrHistogram)",
                "seconds since the first click", "ms (log scale)", xs).logY();
        svg.series("p50", t.buckets.stream().mapToDouble(b -> b.latency().p50()).toArray());
        svg.series("p90", t.buckets.stream().mapToDouble(b -> b.latency().p90()).toArray());
        svg.series("p99", t.buckets.stream().mapToDouble(b -> b.latency().p99()).toArray());
        svg.series("max", t.buckets.stream().mapToDouble(b -> b.latency().max()).toArray());
        return marked(svg).render();
    }

    /** RSS of each component over the whole bench, with the start of each phase marked. */
    String memory() {
        if (samples.isEmpty()) {
            return new Svg("Resident memory", "seconds", "MB", new double[0]).render();
        }
        long first = samples.get(0).nanos();
        double[] x = samples.stream().mapToDouble(s -> (s.nanos() - first) / 1e9).toArray();
        Svg svg = new Svg("Resident memory (VmRSS) during the bench", "seconds since the bench started", "MB", x);
        for (String c : Sampler.COMPONENTS) {
            svg.series(c, samples.stream().mapToDouble(s -> s.rssKb().getOrDefault(c, 0L) / 1024.0).toArray());
        }
        marks.forEach((phase, at) -> svg.marker(phase, Math.max(0, (at - first) / 1e9)));
        return svg.render();
    }

    /** Cores used over the bench, stacked: each component, the bench itself, every other process. */
    String cpu() {
        List<Sampler.Sample> ss = new ArrayList<>();
        long step = cpuStepNanos(samples);
        for (Sampler.Sample s : samples) {
            if (ss.isEmpty() || s.nanos() - ss.get(ss.size() - 1).nanos() >= step) {
                ss.add(s);
            }
        }
        if (ss.size() < 2) {
            return new Svg("CPU", "seconds", "cores", new double[0]).render();
        }
        long first = ss.get(0).nanos();
        double[] x = new double[ss.size() - 1];
        List<Map<String, Double>> cores = new ArrayList<>();
        for (int i = 1; i < ss.size(); i++) {
            x[i - 1] = (ss.get(i).nanos() - first) / 1e9;
            cores.add(Report.cores(ss.get(i - 1), ss.get(i)));
        }
        Svg svg = new Svg("Where the CPU went (cores; the machine has " + Sampler.MACHINE_CORES + ")",
                "seconds since the bench started", "cores", x).stacked();
        for (String k : cores.get(0).keySet()) {
            if (!k.equals("idle")) {
                svg.series(k, cores.stream().mapToDouble(m -> m.getOrDefault(k, 0.0)).toArray());
            }
        }
        marks.forEach((phase, at) -> svg.marker(phase, Math.max(0, (at - first) / 1e9)));
        return svg.render();
    }

    /**
     * The span of one CPU point: CPU ticks are 1/100 s, so a point spans at least {@link #MIN_CPU_STEP_NANOS}; a
     * longer bench gets longer points, at most {@link #CPU_POINTS} of them. A short run (a quick sale of under a
     * second) thus still draws several points, where a fixed second drew none.
     */
    static long cpuStepNanos(List<Sampler.Sample> samples) {
        if (samples.size() < 2) {
            return MIN_CPU_STEP_NANOS;
        }
        long span = samples.get(samples.size() - 1).nanos() - samples.get(0).nanos();
        return Math.max(MIN_CPU_STEP_NANOS, span / CPU_POINTS);
    }

    /** The flash sale's moments, in seconds since the first click (the throughput and latency charts' x). */
    private Svg marked(Svg svg) {
        if (numbers.firstSoldOutAt() != null) {
            svg.marker("first SOLD_OUT", numbers.firstSoldOutAt());
        }
        if (numbers.sellOutAt() != null) {
            svg.marker("last 202", numbers.sellOutAt());
        }
        if (numbers.drainedAt() != null) {
            svg.marker("writer drained", numbers.drainedAt());
        }
        return svg;
    }

    private double[] rates(String outcome) {
        List<Double> r = new ArrayList<>();
        for (Timeline.Bucket b : t.buckets) {
            r.add(t.rate(b, outcome));
        }
        return r.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
