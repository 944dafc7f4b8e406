package dev.seckill.chaos.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.chaos.fault.FaultEvent;
import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Schedule;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;
import dev.seckill.chaos.settle.EndOfRun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * report.md and report.json of a run: the seed and schedule (each fault planned and real), the operations and
 * answers by kind, status and code per period, the time to recover per fault kind, and the verdict.
 */
public final class ChaosReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Everything a report says. {@code verdict} is the checker's (null when it did not run: {@code checker} says why). */
    public record Run(long seed, double minutes, String faults, long startMillis, long workloadEndMillis,
                      long endMillis, Schedule schedule, List<Window> windows, Map<Integer, String> problems,
                      List<String> sales, List<Long> saleIds, List<Op> ops, EndOfRun.Outcome settlement,
                      Object verdict, Boolean holds, String checker, Timeliness.Table timeliness) {
    }

    private ChaosReport() {
    }

    /** Writes both files into {@code out}; returns the Markdown (the console prints it). */
    public static String write(Run run, Path out) throws IOException {
        Files.createDirectories(out);
        List<Periods.Period> periods = Periods.of(run.ops(), run.windows(), run.startMillis(), run.endMillis());
        List<Recovery.OfFault> faults = Recovery.perFault(run.ops(), run.windows());
        List<Recovery.OfKind> kinds = Recovery.perKind(faults);
        Timeliness.Table timely = run.timeliness();
        String md = markdown(run, periods, faults, kinds, timely);
        Files.writeString(out.resolve("report.md"), md);
        ObjectNode json = json(run, periods, faults, kinds);
        json.set("timeliness", JSON.valueToTree(timely));
        JSON.writeValue(out.resolve("report.json").toFile(), json);
        return md;
    }

    private static String markdown(Run run, List<Periods.Period> periods, List<Recovery.OfFault> faults,
                                   List<Recovery.OfKind> kinds, Timeliness.Table timely) {
        StringBuilder b = new StringBuilder();
        b.append("# Chaos run, seed ").append(run.seed()).append("\n\n");
        b.append(String.format(Locale.ROOT, "Workload %.1f min from %s, faults %s; %d operations; whole run %d s "
                        + "(settling %d s). Replay: `bin/seckill chaos --cluster --minutes %s --seed %d --faults %s`.%n%n",
                run.minutes(), Instant.ofEpochMilli(run.startMillis()), run.faults(), run.ops().size(),
                (run.endMillis() - run.startMillis()) / 1000, run.settlement() == null ? 0 : run.settlement().millis() / 1000,
                trim(run.minutes()), run.seed(), run.faults()));
        b.append("## Verdict\n\n");
        if (run.holds() == null) {
            b.append("**").append(run.checker()).append("**\n\n");
        } else {
            b.append(run.holds() ? "**HOLDS**" : "**VIOLATED**").append("\n\n```\n").append(verdictText(run.verdict()))
                    .append("\n```\n\n");
        }
        if (run.settlement() != null && !run.settlement().unsettled().isEmpty()) {
            b.append("Not settled before the check:\n\n");
            run.settlement().unsettled().forEach(u -> b.append("- ").append(u).append('\n'));
            b.append('\n');
        }
        b.append("## Sales\n\n");
        run.sales().forEach(s -> b.append("- ").append(s).append('\n'));
        b.append("- every sale of the run (checked): ").append(run.saleIds()).append("\n\n");
        b.append("## Schedule\n\n| # | fault | planned at | planned span | injected at | healed at | real span | note |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        Map<Integer, Window> byNumber = new java.util.HashMap<>();
        run.windows().forEach(w -> byNumber.put(w.event().number(), w));
        for (FaultEvent e : run.schedule().events()) {
            Window w = byNumber.get(e.number());
            b.append("| ").append(e.number()).append(" | ").append(Schedule.describe(e.fault())).append(" | ")
                    .append(Schedule.clock(e.at().toMillis())).append(" | ").append(secs(e.span().toMillis()))
                    .append(" | ").append(w == null || w.injectedMillis() <= 0 ? "-" : at(run, w.injectedMillis()))
                    .append(" | ").append(w == null || w.healedMillis() <= 0 ? "-" : at(run, w.healedMillis()))
                    .append(" | ").append(w == null || w.injectedMillis() <= 0 || w.healedMillis() <= 0 ? "-"
                            : secs(w.healedMillis() - w.injectedMillis()))
                    .append(" | ").append(w == null ? "not injected" : run.problems().getOrDefault(e.number(), ""))
                    .append(" |\n");
        }
        b.append(timeliness(timely));
        b.append("\n## Time to recover\n\nFrom the heal to the first good purchase answer (202, 409 ALREADY_PURCHASED, "
                + "410) of each sale the fault affected (a purchase answered otherwise in its window); a fault's is its "
                + "slowest sale's.\n\n| kind | faults | affecting a sale | median | longest | never recovered |\n"
                + "|---|---|---|---|---|---|\n");
        for (Recovery.OfKind k : kinds) {
            b.append("| ").append(k.kind().label()).append(" | ").append(k.faults()).append(" | ").append(k.affecting())
                    .append(" | ").append(k.medianMillis() == null ? "-" : secs(k.medianMillis())).append(" | ")
                    .append(k.maxMillis() == null ? "-" : secs(k.maxMillis())).append(" | ").append(k.notRecovered())
                    .append(" |\n");
        }
        b.append("\n| # | kind | sales affected | recovery |\n|---|---|---|---|\n");
        for (Recovery.OfFault f : faults) {
            b.append("| ").append(f.number()).append(" | ").append(f.kind().label()).append(" | ")
                    .append(f.affectedSales().isEmpty() ? "none" : f.affectedSales().toString()).append(" | ")
                    .append(f.affectedSales().isEmpty() ? "-" : f.recovered() ? secs(f.millis()) : "not recovered")
                    .append(" |\n");
        }
        b.append("\n## Answers by period\n\nOperations by the period they started in (a fault's window: from its "
                + "injection to its heal), counted by kind, status (0: no answer within the client's timeout) and code.\n\n"
                + "| period | from | to | operations | answers |\n|---|---|---|---|---|\n");
        for (Periods.Period p : periods) {
            StringBuilder answers = new StringBuilder();
            p.counts().forEach((k, n) -> answers.append(answers.isEmpty() ? "" : ", ").append(k).append(": ").append(n));
            b.append("| ").append(p.name()).append(" | ")
                    .append(p.fromMillis() == Long.MIN_VALUE ? "start" : at(run, p.fromMillis())).append(" | ")
                    .append(p.toMillis() < 0 ? "end" : at(run, p.toMillis())).append(" | ").append(p.total())
                    .append(" | ").append(answers.isEmpty() ? "-" : answers).append(" |\n");
        }
        Map<String, Long> all = new java.util.TreeMap<>();
        run.ops().forEach(o -> all.merge(Periods.key(o), 1L, Long::sum));
        b.append("\nThe whole run (").append(run.ops().size()).append(" operations; two faults' windows may overlap): ");
        StringBuilder totals = new StringBuilder();
        all.forEach((k, n) -> totals.append(totals.isEmpty() ? "" : ", ").append(k).append(": ").append(n));
        b.append(totals).append(".\n");
        return b.toString();
    }

    private static ObjectNode json(Run run, List<Periods.Period> periods, List<Recovery.OfFault> faults,
                                   List<Recovery.OfKind> kinds) {
        ObjectNode root = JSON.createObjectNode();
        root.put("seed", run.seed());
        root.put("minutes", run.minutes());
        root.put("faults", run.faults());
        root.put("startMillis", run.startMillis());
        root.put("workloadEndMillis", run.workloadEndMillis());
        root.put("endMillis", run.endMillis());
        root.put("operations", run.ops().size());
        ArrayNode schedule = root.putArray("schedule");
        for (FaultEvent e : run.schedule().events()) {
            ObjectNode f = schedule.addObject();
            f.put("number", e.number());
            f.put("kind", FaultKind.of(e.fault()).label());
            f.put("fault", Schedule.describe(e.fault()));
            f.set("nodes", JSON.valueToTree(e.fault().nodes()));
            f.put("plannedAtMillis", e.at().toMillis());
            f.put("plannedSpanMillis", e.span().toMillis());
            Optional<Window> w = run.windows().stream().filter(x -> x.event().number() == e.number()).findFirst();
            f.put("injectedMillis", w.map(Window::injectedMillis).orElse(-1L));
            f.put("healedMillis", w.map(Window::healedMillis).orElse(-1L));
            if (run.problems().containsKey(e.number())) {
                f.put("problem", run.problems().get(e.number()));
            }
        }
        root.set("sales", JSON.valueToTree(run.sales()));
        root.set("saleIds", JSON.valueToTree(run.saleIds()));
        root.set("periods", JSON.valueToTree(periods));
        root.set("recoveryPerFault", JSON.valueToTree(faults));
        root.set("recoveryPerKind", JSON.valueToTree(kinds));
        if (run.settlement() != null) {
            root.set("settlement", JSON.valueToTree(run.settlement()));
        }
        ObjectNode v = root.putObject("verdict");
        if (run.holds() == null) {
            v.putNull("holds");
            v.put("checker", run.checker());
        } else {
            v.put("holds", run.holds());
            try {
                v.set("detail", JSON.valueToTree(run.verdict()));
            } catch (RuntimeException e) {
                v.put("detail", String.valueOf(run.verdict()));
            }
        }
        return root;
    }

    private static String timeliness(Timeliness.Table t) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%n## Answers in time%n%nOperations by the faults whose window they started "
                + "in (kind and the role of the node hit), answered within the deadline (%d ms), answered later, or "
                + "not at all (of which excused: cut off with the entry point they were sent to, killed or paused while they "
                + "waited); "
                + "in time %% leaves the excused out; p99 of the answered.%n%n"
                + "| faults | operations | in time | late | no answer | excused | in time %% | p99 |%n"
                + "|---|---|---|---|---|---|---|---|%n", t.deadlineMillis()));
        for (Timeliness.Row r : t.rows()) {
            b.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %.2f | %s |%n", r.faults(),
                    r.operations(), r.inTime(), r.late(), r.unanswered(), r.excused(), r.inTimePercent(),
                    r.p99Millis() == null ? "-" : r.p99Millis() + " ms"));
        }
        b.append(String.format(Locale.ROOT, "%nTarget %.1f %% in time in every row: %s. Not excused and answered "
                        + "later than the deadline plus %d ms or not at all: %d operations (the run fails on any).%n",
                Timeliness.TARGET_PERCENT, t.targetMet() ? "met" : "NOT met", Timeliness.MARGIN_MILLIS,
                t.overdue().size()));
        return b.toString();
    }

    private static String verdictText(Object verdict) {
        try {
            return JSON.writeValueAsString(verdict);
        } catch (IOException | RuntimeException e) {
            return String.valueOf(verdict);
        }
    }

    private static String at(Run run, long millis) {
        return Schedule.clock(millis - run.startMillis());
    }

    private static String secs(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static String trim(double minutes) {
        return minutes == Math.rint(minutes) ? Long.toString((long) minutes) : Double.toString(minutes);
    }
}
