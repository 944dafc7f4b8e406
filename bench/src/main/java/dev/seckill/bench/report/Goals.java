package dev.seckill.bench.report;

import dev.seckill.bench.BenchOptions;
import dev.seckill.bench.measure.Memory;
import dev.seckill.bench.measure.Ratio;
import dev.seckill.bench.scenario.Ceilings;
import dev.seckill.bench.scenario.FlashSale;
import dev.seckill.bench.scenario.FloodLevels;
import dev.seckill.bench.scenario.HotSale;
import dev.seckill.bench.scenario.LargeSale;
import dev.seckill.bench.scenario.PartCosts;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static dev.seckill.bench.report.Section.f;

/** The bench's targets, each as measured value against target; reported, never asserted by tests. */
public final class Goals {

    private Goals() {
    }

    public static List<Report.Goal> of(BenchOptions o, Ceilings.Result c, List<Ratio> ratios, FlashSale sale,
                                List<FloodLevels.Level> floods, List<Memory> memory, List<HotSale.Run> hot,
                                List<LargeSale.Run> large, PartCosts.Result parts, boolean invariantsHold) {
        List<Report.Goal> g = new ArrayList<>();
        if (c != null) {
            for (String path : List.of(Ceilings.PURCHASE, Ceilings.PURCHASE_REFUSED)) {
                g.add(ceiling(c, ratios, path + " through the edge vs the edge-proxied trivial route", path,
                        Ceilings.TRIVIAL, path.equals(Ceilings.PURCHASE) ? 0.5 : 0.7));
                g.add(millis(path + ": p99 at " + o.connections() + " connections", c.best().get(path).latency().p99(),
                        50));
            }
            g.add(ceiling(c, ratios, "edge-proxied trivial route vs nginx return 200 alone", Ceilings.TRIVIAL,
                    Ceilings.RETURN_200, 0.3));
            g.add(ceiling(c, ratios, "sold-out short-circuit vs nginx return 200", Ceilings.SHORT_CIRCUIT,
                    Ceilings.RETURN_200, 0.9));
            double batched = c.writer().batchedOrdersPerSec();
            g.add(new Report.Goal("batch writer", f("%,.0f orders/s", batched), ">= 20,000 orders/s",
                    batched >= 20_000));
            double w = c.writer().ratio();
            g.add(new Report.Goal("batch writer vs row-at-a-time", f("%.1f x", w), ">= 10 x", w >= 10));
        }
        // The large sale against the trivial routes, through one edge against straight, its CPU against its parts.
        LargeSale.Run edge = LargeSale.find(large, LargeSale.VIA_EDGE);
        LargeSale.Run straight = LargeSale.find(large, LargeSale.STRAIGHT);
        if (edge != null && parts != null) {
            g.add(versus("large sale through the edge: units sold/s vs the trivial proxied route",
                    edge.unitsPerSecond(), parts.trivialProxied().rps(), "units/s vs %,.0f req/s", 0.15));
        }
        if (straight != null && parts != null) {
            g.add(versus("large sale straight to the service: units sold/s vs its trivial route straight",
                    straight.unitsPerSecond(), parts.trivialStraight().rps(), "units/s vs %,.0f req/s", 0.2));
        }
        if (LargeSale.edgeShare(large) != null) {
            g.add(versus("large sale: units sold/s through one edge vs straight to the service",
                    edge.unitsPerSecond(), straight.unitsPerSecond(), "vs %,.0f units/s", 0.9));
        }
        Double whole = LargeSale.wholeOverParts(large, parts);
        if (whole != null) {
            g.add(new Report.Goal("large sale through the edge: CPU per accepted order vs the sum of its parts alone",
                    times(edge.cpu().machineMicrosPerUnit(), parts.sum(), "vs %,.0f µs"), "<= 2 x", whole <= 2));
        }
        // A hot sale coalesced against one script call per buyer, both measured in this run.
        Double coalesced = HotSale.ratio(hot);
        if (coalesced != null) {
            HotSale.Run one = HotSale.find(hot, HotSale.ONE_CALL);
            HotSale.Run co = HotSale.find(hot, HotSale.COALESCING);
            g.add(new Report.Goal("hot sale, decisions/s: coalescing vs one script call per buyer",
                    f("%.2f x (%,.0f vs %,.0f decisions/s; p99 %.1f vs %.1f ms; %.2f attempts per call)", coalesced,
                            co.decisionsPerSecond(), one.decisionsPerSecond(), co.measured().latency().p99(),
                            one.measured().latency().p99(), co.attemptsPerCall()), ">= 2 x", coalesced >= 2));
        }
        // Each edge holds 20,000 clients; the largest level of the sold-out flood is the test of it.
        floods.stream().filter(l -> l.connections() >= 20_000).reduce((a, b) -> b).ifPresent(l -> g.add(new Report.Goal(
                f("sold-out flood at %,d connections: failed connections, requests without an answer, edge alerts",
                        l.connections()), f("%d, %d, %d", l.wire().failed(), l.measured().count("0"), l.edgeAlerts()),
                "0, 0, 0", l.clean())));
        if (sale.sellOutAt() != null) {
            g.add(millis("flash sale: clicks sent before the sell-out, p99", sale.latencyUntilSellOut().p99(), 30));
        }
        g.add(millis("flash sale p99 (every answer) at " + o.connections() + " connections", sale.latency().p99(), 20));
        double rss = memory.stream().filter(m -> m.component().equals("service")).mapToDouble(Memory::maxMb)
                .findFirst().orElse(0);
        g.add(new Report.Goal("service RSS during the run (max sample)", f("%.0f MB", rss), "<= 512 MB",
                rss > 0 && rss <= 512));
        g.add(new Report.Goal("oversold, duplicates, lost orders in every sale of the run",
                invariantsHold ? "0, 0, 0" : "violations (see the invariants)", "0, 0, 0", invariantsHold));
        return g;
    }

    private static Report.Goal millis(String name, double p99, int max) {
        return new Report.Goal(name, f("%.1f ms", p99), "<= " + max + " ms", p99 <= max);
    }

    /** A goal on {@code a / b} of at least {@code min} x; {@code vs} formats b. */
    private static Report.Goal versus(String name, double a, double b, String vs, double min) {
        return new Report.Goal(name, times(a, b, vs), ">= " + min + " x", a / b >= min);
    }

    /** "0.42 x (12,000 units/s vs 28,571 req/s)": {@code a / b}, a, then b formatted by {@code vs}. */
    private static String times(double a, double b, String vs) {
        return f("%.2f x (%,.0f " + vs + ")", a / b, a, b);
    }

    /** The median over the ceiling rounds of top / bottom, against {@code min}. */
    private static Report.Goal ceiling(Ceilings.Result c, List<Ratio> ratios, String name, String top, String bottom,
                                       double min) {
        Ratio r = ratios.stream().filter(x -> x.name().equals(top + " / " + bottom)).findFirst().orElseThrow();
        String rounds = r.rounds().stream().map(x -> f("%.2f", x)).collect(Collectors.joining(" · "));
        return new Report.Goal(name, f("%.2f x (rounds %s; best %,.0f vs %,.0f req/s)", r.median(), rounds,
                c.best().get(top).rps(), c.best().get(bottom).rps()), ">= " + min + " x", r.median() >= min);
    }
}
