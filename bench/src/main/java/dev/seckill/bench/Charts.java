package dev.seckill.bench;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Section;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.load.Timeline;
import dev.seckill.bench.scenario.FlashSale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.lines.SeriesLines;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * The report's charts (XChart, PNG), only where a plot says more than the sections' tables: the flash sale's answers
 * and latency over time, and the CPU of each component through the bench's phases (the memory section's table holds
 * the RSS figures). A marker is a dashed line, named in the legend with its time.
 */
public record Charts(Timeline t, List<Sampler.Sample> samples, Map<String, Long> marks, FlashSale numbers) {

    private static final String SALE_X = "seconds since the first click";
    private static final String BENCH_X = "seconds since the bench started";

    public List<Path> write(Path out) throws IOException {
        Map<String, XYChart> charts = Map.of(BenchReport.THROUGHPUT_PNG, throughput(), BenchReport.LATENCY_PNG, latency(),
                BenchReport.CPU_PNG, cpu());
        for (Map.Entry<String, XYChart> c : charts.entrySet()) {
            BitmapEncoder.saveBitmap(c.getValue(), out.resolve(c.getKey()).toString(), BitmapEncoder.BitmapFormat.PNG);
        }
        return charts.keySet().stream().map(out::resolve).toList();
    }

    public XYChart throughput() {
        XYChart c = chart("Flash sale: answers per second by outcome (" + t.bucketMillis + " ms buckets)", SALE_X,
                "answers / s");
        t.outcomes.keySet().forEach(o -> c.addSeries(o, buckets(Timeline.Bucket::at), buckets(b -> t.rate(b, o))));
        return saleMarkers(c);
    }

    /** Latency percentiles per bucket, log scale; an empty bucket is a gap. */
    public XYChart latency() {
        XYChart c = chart("Flash sale: latency per " + t.bucketMillis + " ms bucket (HdrHistogram)", SALE_X,
                "ms (log scale)");
        c.getStyler().setYAxisLogarithmic(true);
        percentile(c, "p50", Measured.Latency::p50);
        percentile(c, "p90", Measured.Latency::p90);
        percentile(c, "p99", Measured.Latency::p99);
        percentile(c, "max", Measured.Latency::max);
        return saleMarkers(c);
    }

    private void percentile(XYChart c, String name, ToDoubleFunction<Measured.Latency> p) {
        c.addSeries(name, buckets(Timeline.Bucket::at), buckets(b -> p.applyAsDouble(b.latency()) > 0
                ? p.applyAsDouble(b.latency()) : Double.NaN));
    }

    /** Cores over the bench, stacked, from pidstat's samples (one a second), thinned to at most 150 points. */
    public XYChart cpu() {
        XYChart c = chart("Where the CPU went (cores; the machine has " + Sampler.MACHINE_CORES + ")", BENCH_X,
                "cores");
        c.getStyler().setYAxisMin(0.0);
        long span = samples.isEmpty() ? 0 : samples.getLast().nanos() - samples.getFirst().nanos();
        long step = span / 150;
        List<Sampler.Sample> ss = new ArrayList<>();
        samples.stream().filter(s -> ss.isEmpty() || s.nanos() - ss.getLast().nanos() >= step).forEach(ss::add);
        List<Map<String, Double>> cores = IntStream.range(1, ss.size())
                .mapToObj(i -> Sampler.cores(ss.get(i - 1), ss.get(i))).toList();
        double[] x = Arrays.copyOfRange(seconds(ss), Math.min(1, ss.size()), ss.size());
        List<String> parts = cores.isEmpty() ? List.of()
                : cores.getFirst().keySet().stream().filter(k -> !k.equals("idle")).toList();
        // Each part's area reaches the sum of those below it, drawn from the top so that the lower ones cover it.
        for (int i = parts.size(); i > 0; i--) {
            List<String> below = parts.subList(0, i);
            c.addSeries(parts.get(i - 1), x, cores.stream().mapToDouble(m -> below.stream().mapToDouble(m::get).sum())
                    .toArray()).setXYSeriesRenderStyle(XYSeriesRenderStyle.Area);
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
        var y = c.getSeriesMap().values().stream().flatMapToDouble(s -> Arrays.stream(s.getYData()))
                .filter(v -> v > 0).summaryStatistics();
        if (at != null && y.getCount() > 0) {
            double bottom = c.getStyler().isYAxisLogarithmic() ? y.getMin() : 0;
            c.addSeries(Section.f("%s (%.2f s)", name, at), new double[] {at, at}, new double[] {bottom, y.getMax()})
                    .setLineStyle(SeriesLines.DASH_DASH);
        }
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(1000).height(500).title(title).xAxisTitle(x).yAxisTitle(y).build();
        c.getStyler().setLegendPosition(LegendPosition.OutsideE).setMarkerSize(0);
        return c;
    }

    private double[] buckets(ToDoubleFunction<Timeline.Bucket> f) {
        return t.buckets.stream().mapToDouble(f).toArray();
    }

    private static double[] seconds(List<Sampler.Sample> s) {
        return s.stream().mapToDouble(x -> (x.nanos() - s.getFirst().nanos()) / 1e9).toArray();
    }
}
