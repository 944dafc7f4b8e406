package dev.seckill.bench;

import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.measure.StatsReading;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.load.Timeline;
import dev.seckill.bench.Charts;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.scenario.FlashSale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of a quick run ({@code --stock 50 --users 3000 --no-ceilings} sold out in 0.72 s): Redis ran out at
 * 0.197 s, the 50 winners heard their 202 at 0.6-0.7 s, the writer drained at 0.9 s, and the sampler's points were
 * sparse during the sale. Every number and marker must still be true.
 */
class ShortRunReportTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000_000_000_000L;
    private static final long END = T0 + 720 * MS;
    private static final int CORES = Sampler.MACHINE_CORES;
    /** What each part uses all along, in cores; the machine is as busy as the parts plus 0.2 cores elsewhere. */
    private static final Map<String, Double> LOAD = Map.of("service", 0.9, "edge", 0.3, "redis", 0.1, "bench", 0.4);
    private static final double BUSY = 0.9 + 0.3 + 0.1 + 0.4 + 0.2;

    @Test
    void sellOutIsTheLastAcceptedAnswerAndTheDrainIsCountedFromIt() {
        FlashSale n = numbers();

        assertEquals(0.700, n.sellOutAt(), 0.001);
        assertEquals(0.197, n.firstSoldOutAt(), 0.001);
        assertEquals(0.900, n.drainedAt(), 0.001);
        assertEquals(0.200, n.drainSeconds(), 0.001);
        assertEquals(50, n.accepted());
    }

    @Test
    void theSaleCpuWindowCoversTheWholeSaleAndAddsUpToTheMachinesCores() {
        Sampler.Cpu cpu = Sampler.cpu("flash sale", samples(), T0, END);

        assertTrue(cpu.seconds() >= 0.72, "window " + cpu.seconds() + " s of a 0.72 s sale");
        double sum = cpu.cores().values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(CORES, sum, 0.05, cpu.cores().toString());
        assertEquals(0.9, cpu.cores().get("service"), 0.02);
        assertEquals(0.2, cpu.cores().get("others"), 0.02);
        assertEquals(CORES - BUSY, cpu.cores().get("idle"), 0.02);
    }

    @Test
    void theChartsDrawAShortRunAndEveryMarkerLiesOnTheData(@TempDir Path out) throws Exception {
        List<Sampler.Sample> samples = samples();
        Map<String, Long> marks = Map.of("flash sale", T0 - MS);
        Charts charts = new Charts(new Timeline(attempts()), samples, marks, numbers());

        XYChart cpu = charts.cpu();
        assertTrue(cpu.getSeriesMap().values().stream().anyMatch(s -> s.getXYSeriesRenderStyle()
                == XYSeries.XYSeriesRenderStyle.Area), "the CPU chart of a 3 s bench has no area");
        // The stack's top is the busy share of the machine: every part and "others".
        XYSeries top = cpu.getSeriesMap().get("others");
        assertEquals(BUSY, top.getYData()[top.getYData().length - 1], 0.05);
        assertMarkers(charts.throughput(), "first SOLD_OUT (0.20 s)", "last 202 (0.70 s)", "writer drained (0.90 s)");
        assertMarkers(charts.latency(), "last 202 (0.70 s)");
        assertMarkers(cpu, "flash sale (1.00 s)");

        BenchReport report = new BenchReport(BenchReport.Machine.now(), Map.of("stock", 50), List.of(), List.of(
                numbers().section(null, 64), Sampler.memory(samples, T0, END),
                Sampler.cpuSection(samples, T0, END, null)));
        Timeline timeline = new Timeline(attempts());
        report.write(out, timeline.buckets);
        new Charts(timeline, samples, marks, numbers()).write(out);
        for (String png : List.of(BenchReport.THROUGHPUT_PNG, BenchReport.LATENCY_PNG, BenchReport.CPU_PNG)) {
            BufferedImage image = ImageIO.read(out.resolve(png).toFile());
            assertEquals(1000, image.getWidth(), png);
            assertEquals(500, image.getHeight(), png);
        }
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("**0.700 s**: the last 202"), md);
        assertTrue(md.contains("**0.20 s** from the last 202"), md);
        assertTrue(md.contains("| service | 97.7 | 97.7 | 97.7 |"), md);
        assertTrue(md.contains("![CPU over the bench](cpu.png)"), md);
    }

    @Test
    void chartsOfARunWithoutSamplesOrAnswersStillRender(@TempDir Path out) throws Exception {
        List<Path> pngs = new Charts(new Timeline(List.of()), List.of(), Map.of(), numbers()).write(out);

        assertEquals(3, pngs.size());
        for (Path png : pngs) {
            assertNotNull(ImageIO.read(png.toFile()), png.toString());
        }
    }

    /** Each named marker is a vertical line within the x range of the chart's data. */
    private static void assertMarkers(XYChart chart, String... names) {
        DoubleSummaryStatistics x = chart.getSeriesMap().values().stream().filter(s -> s.getXData().length > 2)
                .flatMapToDouble(s -> Arrays.stream(s.getXData())).summaryStatistics();
        for (String name : names) {
            XYSeries m = chart.getSeriesMap().get(name);
            assertNotNull(m, name + " in " + chart.getSeriesMap().keySet());
            assertEquals(m.getXData()[0], m.getXData()[1], name);
            assertTrue(m.getXData()[0] >= x.getMin() && m.getXData()[0] <= x.getMax() + 1, name + " off the data");
        }
    }

    private static FlashSale numbers() {
        List<AnsweredClick> attempts = attempts();
        StatsReading stats = new StatsReading(50, 0, 0L, 50, 50, 0, 50, 0, 0, 0);
        FlashSale.Result r = new FlashSale.Result(7, T0, END, attempts, Map.of(), Map.of(), stats, T0 + 900 * MS,
                null);
        return FlashSale.of(r, new Timeline(attempts), 50);
    }

    /** 50 winners clicked early and waited for a slow Kafka send; 2,950 others were refused from 0.197 s on. */
    private static List<AnsweredClick> attempts() {
        List<AnsweredClick> a = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long start = (5 + i) * MS;
            long arrival = (600 + 2 * i) * MS;
            a.add(new AnsweredClick(i, start, arrival - start, 202, "QUEUED", Long.toString(1000 + i), false, 0));
        }
        a.set(49, new AnsweredClick(49, 54 * MS, 700 * MS - 54 * MS, 202, "QUEUED", "1049", false, 0));
        for (int i = 50; i < 3000; i++) {
            long start = (190 + (i - 50) * 520L / 2950) * MS;
            a.add(new AnsweredClick(i, start, 7 * MS, 410, "SOLD_OUT", null, false, 0));
        }
        return a;
    }

    /** Every 250 ms from 1 s before the sale to 2.3 s after, sparse inside it, plus the marks at its two ends. */
    private static List<Sampler.Sample> samples() {
        List<Long> at = new ArrayList<>();
        for (long t = T0 - 1000 * MS; t < T0; t += 250 * MS) {
            at.add(t);
        }
        at.addAll(List.of(T0 - MS, T0 + 310 * MS, END + MS));
        for (long t = END + 250 * MS; t <= END + 2300 * MS; t += 250 * MS) {
            at.add(t);
        }
        List<Sampler.Sample> s = new ArrayList<>();
        for (long nanos : at) {
            double seconds = (nanos - (T0 - 1000 * MS)) / 1e9;
            Map<String, Long> cpu = new LinkedHashMap<>();
            Map<String, Long> rss = new LinkedHashMap<>();
            for (String c : Sampler.COMPONENTS) {
                cpu.put(c, ticks(LOAD.getOrDefault(c, 0.0), seconds));
                rss.put(c, 100_000L);
            }
            cpu.put(Sampler.BENCH, ticks(LOAD.get("bench"), seconds));
            cpu.put(Sampler.MACHINE, ticks(BUSY, seconds));
            cpu.put(Sampler.MACHINE_ALL, ticks(CORES, seconds));
            s.add(new Sampler.Sample(nanos, rss, cpu));
        }
        return s;
    }

    private static long ticks(double cores, double seconds) {
        return Math.round(cores * seconds * 100);
    }
}
