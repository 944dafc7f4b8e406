package dev.seckill.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/** The report's charts (XChart, PNG), each marker a dashed line named in the legend with its time in seconds. */
record Charts(Timeline t, List<Sampler.Sample> samples, Map<String, Long> marks, FlashSaleNumbers numbers) {

    private static final String SALE_X = "seconds since the first click";
    private static final String BENCH_X = "seconds since the bench started";

    List<Path> write(Path out) throws IOException {
        Map<String, XYChart> charts = Map.of(Report.THROUGHPUT_PNG, throughput(), Report.LATENCY_PNG, latency(),
                Report.MEMORY_PNG, memory(), Report.CPU_PNG, cpu());
        for (Map.Entry<String, XYChart> c : charts.entrySet()) {
            BitmapEncoder.saveBitmap(c.getValue(), out.resolve(c.getKey()).toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        return charts.keySet().stream().map(out::resolve).toList();
    }

    /** Answers per second by outcome: the six largest, the rest as "other". */
    XYChart throughput() {
        XYChart c = chart("Flash sale: answers per second by outcome (" + t.bucketMillis + " ms buckets)", SALE_X,
                "answers / s");
        List<String> top = t.outcomes.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.reverseOrder()))
                .limit(6).map(Map.Entry::getKey).toList();
        top.forEach(o -> c.addSeries(o, buckets(Timeline.Bucket::at), buckets(b -> t.rate(b, o))));
        if (t.outcomes.size() > top.size()) {
            c.addSeries("other", buckets(Timeline.Bucket::at),
                    buckets(b -> t.rate(b, null) - top.stream().mapToDouble(o -> t.rate(b, o)).sum()));
        }
        return saleMarkers(c);
    }

    /** Latency percentiles per bucket, log scale; an empty bucket is a gap. */
    XYChart latency() {
        XYChart c = chart("Flash sale: latency per " + t.bucketMillis + " ms bucket (HdrHistogram)", SALE_X,
                "ms (log scale)");
        c.getStyler().setYAxisLogarithmic(true);
        new TreeMap<String, ToDoubleFunction<Measured.Latency>>(Map.of("p50", Measured.Latency::p50, "p90",
                Measured.Latency::p90, "p99", Measured.Latency::p99, "max", Measured.Latency::max))
                .forEach((name, p) -> c.addSeries(name, buckets(Timeline.Bucket::at), buckets(b -> {
                    double ms = p.applyAsDouble(b.latency());
                    return ms > 0 ? ms : Double.NaN;
                })));
        return saleMarkers(c);
    }

    XYChart memory() {
        XYChart c = chart("Resident memory (VmRSS) during the bench", BENCH_X, "MB");
        for (String comp : samples.isEmpty() ? List.<String>of() : Sampler.COMPONENTS) {
            c.addSeries(comp, seconds(samples), samples.stream()
                    .mapToDouble(s -> s.rssKb().getOrDefault(comp, 0L) / 1024.0).toArray());
        }
        return phases(c, samples);
    }

    /**
     * Cores used over the bench, stacked: each component, the bench, every other process. Ticks are 1/100 s, so a
     * point spans at least 0.2 s, and a long bench gets longer ones (at most 150).
     */
    XYChart cpu() {
        XYChart c = chart("Where the CPU went (cores; the machine has " + Sampler.MACHINE_CORES + ")", BENCH_X, "cores");
        c.getStyler().setYAxisMin(0.0);
        long step = samples.isEmpty() ? 0 : (samples.getLast().nanos() - samples.getFirst().nanos()) / 150;
        List<Sampler.Sample> ss = new ArrayList<>();
        for (Sampler.Sample s : samples) {
            if (ss.isEmpty() || s.nanos() - ss.getLast().nanos() >= Math.max(200_000_000L, step)) {
                ss.add(s);
            }
        }
        List<Map<String, Double>> cores = IntStream.range(1, ss.size())
                .mapToObj(i -> CpuWindow.cores(ss.get(i - 1), ss.get(i))).toList();
        double[] x = Arrays.copyOfRange(seconds(ss), Math.min(1, ss.size()), ss.size());
        List<String> keys = cores.isEmpty() ? List.of()
                : cores.getFirst().keySet().stream().filter(k -> !k.equals("idle")).toList();
        // Each part's area reaches the sum of those below it, drawn from the top so that the lower ones cover it.
        for (int i = keys.size(); i > 0; i--) {
            List<String> below = keys.subList(0, i);
            c.addSeries(keys.get(i - 1), x, cores.stream().mapToDouble(m -> below.stream().mapToDouble(m::get).sum())
                    .toArray()).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
        }
        return phases(c, ss);
    }

    private XYChart saleMarkers(XYChart c) {
        marker(c, "first SOLD_OUT", numbers.firstSoldOutAt());
        marker(c, "last 202", numbers.sellOutAt());
        marker(c, "writer drained", numbers.drainedAt());
        return c;
    }

    private XYChart phases(XYChart c, List<Sampler.Sample> on) {
        marks.forEach((phase, at) -> marker(c, phase,
                on.isEmpty() ? null : Math.max(0, (at - on.getFirst().nanos()) / 1e9)));
        return c;
    }

    /** A dashed vertical line at {@code at} seconds over the height of the chart's data. */
    private static void marker(XYChart c, String name, Double at) {
        DoubleSummaryStatistics y = c.getSeriesMap().values().stream().flatMapToDouble(s -> Arrays.stream(s.getYData()))
                .filter(v -> v > 0).summaryStatistics();
        if (at != null && y.getCount() > 0) {
            c.addSeries(Section.f("%s (%.2f s)", name, at), new double[] {at, at},
                    new double[] {c.getStyler().isYAxisLogarithmic() ? y.getMin() : 0, y.getMax()})
                    .setLineStyle(SeriesLines.DASH_DASH);
        }
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(1000).height(500).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(0);
        return c;
    }

    private double[] buckets(ToDoubleFunction<Timeline.Bucket> f) {
        return t.buckets.stream().mapToDouble(f).toArray();
    }

    private static double[] seconds(List<Sampler.Sample> s) {
        return s.stream().mapToDouble(x -> (x.nanos() - s.getFirst().nanos()) / 1e9).toArray();
    }
}
