package dev.seckill.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The large sale's part of the report: both runs (through the edge, straight to the service) with their answers by
 * kind, and the CPU per accepted order of each component beside what the same component spends on its part of an
 * order alone ({@link PartCosts}), so the report says how far the whole is from the sum of its parts and which part
 * holds the rest.
 */
final class LargeSaleReport {

    private static final ObjectMapper JSON = ReportSections.JSON;

    /** One component's CPU per accepted order: in each run, alone, and the run through the edge over alone. */
    record Row(String component, Double viaEdge, Double straight, Double alone, Double overAlone) {
    }

    private LargeSaleReport() {
    }

    static List<Row> rows(List<LargeSale.Run> runs, PartCosts.Result parts) {
        LargeSale.Run edge = LargeSale.find(runs, LargeSale.VIA_EDGE);
        LargeSale.Run straight = LargeSale.find(runs, LargeSale.STRAIGHT);
        Set<String> components = new LinkedHashSet<>(Sampler.COMPONENTS);
        components.add(Sampler.BENCH);
        components.add("others");
        List<Row> rows = new ArrayList<>();
        for (String c : components) {
            Double e = edge == null ? null : edge.cpu().microsPerUnit().get(c);
            Double s = straight == null ? null : straight.cpu().microsPerUnit().get(c);
            Double a = parts == null ? null : parts.alonePerOrder().get(c);
            rows.add(new Row(c, e, s, a, e != null && a != null && a > 0 ? Report.round(e / a) : null));
        }
        Double e = edge == null ? null : edge.cpu().machineMicrosPerUnit();
        Double s = straight == null ? null : straight.cpu().machineMicrosPerUnit();
        Double a = parts == null ? null : Report.round(parts.sum());
        rows.add(new Row("whole machine", e, s, a, e != null && a != null && a > 0 ? Report.round(e / a) : null));
        return rows;
    }

    /** The machine's CPU per accepted order through the edge over the sum of the parts alone; null without both. */
    static Double wholeOverParts(List<LargeSale.Run> runs, PartCosts.Result parts) {
        LargeSale.Run edge = LargeSale.find(runs, LargeSale.VIA_EDGE);
        return edge == null || parts == null || parts.sum() <= 0 ? null : edge.cpu().machineMicrosPerUnit() / parts.sum();
    }

    /** Adds {@code largeSale} to report.json and its section to report.md. */
    static void addTo(Path out, List<LargeSale.Run> runs, PartCosts.Result parts) throws IOException {
        if (runs.isEmpty()) {
            return;
        }
        ObjectNode large = JSON.createObjectNode();
        large.set("runs", JSON.valueToTree(runs));
        if (parts != null) {
            large.set("parts", JSON.valueToTree(parts));
        }
        large.set("cpuPerAcceptedOrder", JSON.valueToTree(rows(runs, parts)));
        Double share = LargeSale.edgeShare(runs);
        if (share != null) {
            large.put("edgeOverStraight", Report.round(share));
        }
        ReportSections.add(out, "largeSale", large, markdown(runs, parts));
    }

    static String markdown(List<LargeSale.Run> runs, PartCosts.Result parts) {
        StringBuilder s = new StringBuilder("## Large sale: selling at the speed of the parts\n\n");
        s.append(f("%,d units, %,d distinct buyers who click as the sale page does (a 429 or 503 waits its Retry-After, "
                + "SOLD_OUT stops; %d clicks at most), through the edge with its settings as they are, then a new sale "
                + "straight to the service's port. Units/s: 202s over the time from the first click to the last 202.\n\n",
                LargeSale.STOCK, LargeSale.BUYERS, LargeSale.CLICKS));
        s.append("| route | connections | units sold/s | sold out after | answers by kind | p50 | p99 | "
                + "reconcile actions | invariants |\n|---|---|---|---|---|---|---|---|---|\n");
        for (LargeSale.Run r : runs) {
            s.append(f("| %s | %d | %,.0f | %s | %s | %.1f ms | %.1f ms | %d | %s |\n", r.route(), r.connections(),
                    r.unitsPerSecond(), r.sellOutSeconds() == null ? "not sold out" : f("%.2f s", r.sellOutSeconds()),
                    r.byKind(), r.latency().p50(), r.latency().p99(), r.reconciled(),
                    r.invariants().ok() ? "hold" : "VIOLATED: " + r.invariants().violations()));
        }
        Double share = LargeSale.edgeShare(runs);
        if (share != null) {
            s.append(f("\nThrough the edge / straight to the service: **%.2f x** units per second.\n", share));
        }
        s.append("\n### CPU per accepted order, by component (µs)\n\n");
        s.append("Each run's CPU over its window divided by its 202s, beside what the component spends on its part of "
                + "one order measured alone in this run:\n");
        if (parts != null) {
            for (CpuWindow.PerUnit p : parts.parts()) {
                s.append(f("- *%s*: %,d in %.1f s, per unit %s\n", p.window(), p.units(), p.seconds(), p.microsPerUnit()));
            }
        }
        s.append("\n| component | through the edge | straight | its part alone | through the edge / alone |\n"
                + "|---|---|---|---|---|\n");
        for (Row r : rows(runs, parts)) {
            s.append(f("| %s | %s | %s | %s | %s |\n", r.component(), n(r.viaEdge()), n(r.straight()), n(r.alone()),
                    r.overAlone() == null ? "-" : f("%.2f x", r.overAlone())));
        }
        s.append("\nThe parts alone: edge and load client one proxied trivial request; the service its HTTP (the "
                + "trivial request), its Redis client (redis-benchmark's side of a call) and its producer (the bench's "
                + "side of a record); Redis one purchase-script call; Kafka one record (one partition, one copy on the "
                + "single stack); the writer its batch code (run in the bench); MariaDB one row.\n");
        return s.toString();
    }

    private static String n(Double v) {
        return v == null ? "-" : f("%.1f", v);
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
