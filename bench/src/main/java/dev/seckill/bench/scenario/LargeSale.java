package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.BenchOptions;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Admin;
import dev.seckill.bench.measure.CpuWindow;
import dev.seckill.bench.measure.Invariants;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.measure.Settled;
import dev.seckill.bench.report.Report;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.HdrHistogram.Histogram;
import org.redisson.api.RedissonClient;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The large sale as shoppers meet it: {@value #STOCK} units, {@value #BUYERS} distinct buyers clicking as the sale page
 * does (a 429 or 503 waits out its Retry-After, SOLD_OUT stops, {@value #CLICKS} clicks at most), through the edge,
 * then a new sale straight to the service; each component's CPU per accepted order beside its part alone.
 */
public final class LargeSale {

    public static final int STOCK = 100_000;
    static final int BUYERS = 200_000;
    public static final int CLICKS = 10;
    public static final String VIA_EDGE = "through the edge";
    public static final String STRAIGHT = "straight to the service";

    /** {@code unitsPerSecond}: 202s over the time to the last one (to the end when it did not sell out). */
    public record Run(String route, long saleId, int connections, long answers, long accepted, Double sellOutSeconds,
               double unitsPerSecond, Map<String, Long> byKind, Measured.Latency latency,
               CpuWindow.PerUnit cpu, int reconciled, Invariants.Report invariants) {
    }

    /** One component's CPU per accepted order (µs): in each run, its part alone, through the edge over alone. */
    public record Row(String component, Double viaEdge, Double straight, Double alone, Double overAlone) {
    }

    /** Both runs and the parts alone: the large sale's section. */
    public record Result(List<Run> runs, PartCosts.Result parts) {

        @JsonProperty
        Double edgeOverStraight() {
            Double share = edgeShare(runs);
            return share == null ? null : Report.round(share);
        }

        @JsonProperty
        List<Row> cpuPerAcceptedOrder() {
            Stream<String> components = Stream.concat(Sampler.COMPONENTS.stream(), Stream.of(Sampler.BENCH, "others"));
            List<Row> rows = new ArrayList<>(components.distinct().map(c -> row(c, runs.get(0).cpu().microsPerUnit()
                    .get(c), runs.get(1).cpu().microsPerUnit().get(c), parts.alonePerOrder().get(c))).toList());
            rows.add(row("whole machine", runs.get(0).cpu().machineMicrosPerUnit(),
                    runs.get(1).cpu().machineMicrosPerUnit(), Report.round(parts.sum())));
            return rows;
        }

        private static Row row(String component, Double edge, Double straight, Double alone) {
            return new Row(component, edge, straight, alone,
                    edge != null && alone != null && alone > 0 ? Report.round(edge / alone) : null);
        }

        public Section section() {
            Section s = new Section("largeSale", "Large sale: selling at the speed of the parts").data(this)
                    .text("%,d units, %,d buyers clicking as the sale page does (%d clicks at most); units/s: 202s "
                            + "over the time to the last 202 (bench/README.md).", STOCK, BUYERS, CLICKS)
                    .table("route", "connections", "units sold/s", "sold out after", "answers by kind", "p50", "p99",
                            "reconcile actions", "invariants");
            for (Run r : runs) {
                s.row(r.route(), r.connections(), Section.f("%,.0f", r.unitsPerSecond()), r.sellOutSeconds() == null
                        ? "not sold out" : Section.f("%.2f s", r.sellOutSeconds()), r.byKind(), Section.f("%.1f ms",
                        r.latency().p50()), Section.f("%.1f ms", r.latency().p99()), r.reconciled(),
                        r.invariants().ok() ? "hold" : "VIOLATED: " + r.invariants().violations());
            }
            s.text("Through the edge / straight to the service: **%s x** units per second.",
                    Section.n("%.2f", edgeShare(runs)))
                    .text("### CPU per accepted order, by component (µs), beside each part of an order alone");
            for (CpuWindow.PerUnit p : parts.parts()) {
                s.text("- *%s*: %,d in %.1f s, per unit %s", p.window(), p.units(), p.seconds(), p.microsPerUnit());
            }
            s.table("component", "through the edge", "straight", "its part alone", "through the edge / alone");
            for (Row r : cpuPerAcceptedOrder()) {
                s.row(r.component(), Section.n("%.1f", r.viaEdge()), Section.n("%.1f", r.straight()),
                        Section.n("%.1f", r.alone()), Section.n("%.2f x", r.overAlone()));
            }
            return s;
        }
    }

    private LargeSale() {
    }

    /** The parts alone, then the sale through the edge and straight to the service, each settled and checked. */
    public static Result run(Stack stack, Admin admin, Sampler sampler, RedissonClient redis, BenchOptions o)
            throws Exception {
        Bench.say("minting " + BUYERS + " buyers for the large sale");
        Users buyers = new Users(stack.tokenSecret(), o.firstUser(), BUYERS);
        PartCosts.Result parts = PartCosts.run(stack, sampler, redis, o.connections());
        return new Result(List.of(run(stack, admin, sampler, buyers, VIA_EDGE, stack.edgePort(), o),
                run(stack, admin, sampler, buyers, STRAIGHT, stack.servicePort(), o)), parts);
    }

    private static Run run(Stack stack, Admin admin, Sampler sampler, Users users, String route, int port,
                           BenchOptions o) throws Exception {
        long sale = admin.createSale("bench-large-sale-" + (port == stack.edgePort() ? "edge" : "service") + "-"
                + System.currentTimeMillis(), STOCK);
        Bench.say("large sale " + sale + " (" + route + "): " + STOCK + " units, " + users.size() + " buyers x up to "
                + CLICKS + " clicks, " + o.connections() + " connections");
        Crowd crowd = new Crowd(users, sale, port, CLICKS, 0).likeThePage();
        sampler.mark("large sale, " + route);
        CpuWindow window = CpuWindow.open(sampler);
        LoadClient.run(new InetSocketAddress("127.0.0.1", port), o.connections(), crowd,
                window.from() + o.duration().toNanos(), Duration.ofSeconds(30));
        List<Attempt> attempts = crowd.attempts();
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        CpuWindow.PerUnit cpu = window.close("large sale, " + route, accepted);
        // Crowd's t0 is 0: an attempt's start is its System.nanoTime().
        Double sellOut = accepted < STOCK ? null : attempts.stream().filter(Attempt::accepted)
                .mapToLong(a -> a.startNanos() + a.latencyNanos() - window.from()).max().orElse(0) / 1e9;
        double unitsPerSecond = accepted / (sellOut != null ? sellOut : cpu.seconds());
        Bench.say(Section.f("large sale %d (%s): %,d answers, %,d accepted, %,.0f units/s; waiting for the writer",
                sale, route, attempts.size(), accepted, unitsPerSecond));
        Settled settled = Settled.of(stack, admin, "large sale", sale, attempts);
        Map<String, Long> byKind = new TreeMap<>();
        Histogram micros = new Histogram(60_000_000L, 3);
        for (Attempt a : attempts) {
            byKind.merge(a.kind(), 1L, Long::sum);
            micros.recordValue(Math.min(micros.getHighestTrackableValue(), Math.max(1, a.latencyNanos() / 1000)));
        }
        return new Run(route, sale, o.connections(), attempts.size(), accepted, sellOut, Report.round(unitsPerSecond),
                byKind, Measured.Latency.of(micros), cpu, settled.reconciled(), settled.invariants());
    }

    /** Through the edge over straight to the service, units per second; null without both. */
    public static Double edgeShare(List<Run> runs) {
        Run edge = find(runs, VIA_EDGE);
        Run straight = find(runs, STRAIGHT);
        return edge == null || straight == null || straight.unitsPerSecond() == 0 ? null
                : edge.unitsPerSecond() / straight.unitsPerSecond();
    }

    /** The machine's CPU per accepted order through the edge over the sum of the parts alone; null without both. */
    public static Double wholeOverParts(List<Run> runs, PartCosts.Result parts) {
        Run edge = find(runs, VIA_EDGE);
        return edge == null || parts == null || parts.sum() <= 0 ? null
                : edge.cpu().machineMicrosPerUnit() / parts.sum();
    }

    public static Run find(List<Run> runs, String route) {
        return runs.stream().filter(r -> r.route().equals(route)).findFirst().orElse(null);
    }
}
