package dev.seckill.bench.report;

import dev.seckill.check.SaleSummary;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.seckill.bench.report.Section.f;

/**
 * One bench run's verdict (targets, invariants) and its sections, written as report.json (the head, then each
 * section's data under its key), report.md (the head, then each section in order) and the charts.
 */
public record BenchReport(Machine machine, Map<String, Object> scenario, List<Check> invariants, List<Section> sections) {

    public static final String CPU_PNG = "cpu.png";
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    /** The report's sections in order, by key; a key not listed comes last. */
    static final List<String> ORDER = List.of("flashSale", "memory", "cpu", "floods", "hotSale", "ceilings",
            "payments", "protection", "largeSale", "signIn", "waitingRoom");
    /** The sections whose targets the report lists, in its order; the invariants' own target comes last. */
    private static final List<String> GOALS_FROM = List.of("ceilings", "largeSale", "signIn", "hotSale", "floods",
            "flashSale", "memory");

    /**
     * The invariant check of one sale of the run, read from MySQL and Redis directly, and the run's own expectation
     * of it ({@code soldCount}: what was sold against min(stock, shoppers), null when it held or none was stated).
     */
    public record Check(String sale, @JsonUnwrapped SaleSummary check, String soldCount) {

        public boolean ok() {
            return check.ok() && soldCount == null;
        }

        /** Why it failed: the violations' lines and the unmet expectation. */
        public List<String> failures() {
            List<String> out = new ArrayList<>(check.violationLines());
            if (soldCount != null) {
                out.add(soldCount);
            }
            return out;
        }
    }

    /** The machine a bench ran on: what it is, and its load averages (1, 5, 15 min) before and after. */
    public record Machine(String date, String os, String kernel, String cpu, int cores, long memoryMb, String java,
                          String loadAverageBefore, String loadAverageAfter) {

        public static Machine now() {
            return new Machine(Instant.now().toString(), field("/etc/os-release", "^PRETTY_NAME=\"?([^\"\n]*)", "?"),
                    System.getProperty("os.version"), field("/proc/cpuinfo", "^model name\\s*:(.*)", "?"),
                    Runtime.getRuntime().availableProcessors(),
                    Long.parseLong(field("/proc/meminfo", "^MemTotal:\\s*(\\d+)", "0")) / 1024,
                    System.getProperty("java.vm.name") + " " + Runtime.version(), loadAverage(), null);
        }

        public Machine finished() {
            return new Machine(date, os, kernel, cpu, cores, memoryMb, java, loadAverageBefore, loadAverage());
        }

        private static String loadAverage() {
            return field("/proc/loadavg", "^(\\S+ \\S+ \\S+)", "?");
        }

        private static String field(String path, String regex, String otherwise) {
            String text;
            try {
                text = Files.readString(Path.of(path));
            } catch (IOException e) {
                text = "";
            }
            Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
            return m.find() ? m.group(1).trim() : otherwise;
        }
    }

    /** The sections in the report's {@link #ORDER}, whatever order the steps gave them in. */
    public BenchReport {
        sections = sections.stream().sorted(Comparator.comparingInt(s -> ORDER.contains(s.key())
                ? ORDER.indexOf(s.key()) : ORDER.size())).toList();
    }

    public boolean ok() {
        return invariants.stream().allMatch(Check::ok);
    }

    /**
     * Every section's targets, those of {@link #GOALS_FROM} first in its order, then any other section's (the
     * waiting room's) in the report's order; then: no sale of the run oversold, duplicated or lost.
     */
    public List<Section.Goal> goals() {
        List<Section.Goal> g = new ArrayList<>(GOALS_FROM.stream().flatMap(k -> sections.stream()
                .filter(s -> s.key().equals(k))).flatMap(s -> s.goals().stream()).toList());
        sections.stream().filter(s -> !GOALS_FROM.contains(s.key())).forEach(s -> g.addAll(s.goals()));
        g.add(new Section.Goal("oversold, duplicates, lost orders in every sale of the run",
                ok() ? "0, 0, 0" : "violations (see the invariants)", "0, 0, 0", ok()));
        return g;
    }

    /**
     * Writes report.json (with {@code timeline}, the flash sale's answers per time bucket) and report.md; the charts
     * it names are drawn beside them by {@code Charts}.
     */
    public void write(Path out, List<?> timeline) throws IOException {
        Files.createDirectories(out);
        Map<String, Object> json = new LinkedHashMap<>(Map.of("machine", machine));
        json.put("scenario", scenario);
        json.put("ok", ok());
        json.put("goals", goals());
        json.put("invariants", invariants);
        json.put("timeline", timeline);
        json.put("charts", List.of(THROUGHPUT_PNG, LATENCY_PNG, CPU_PNG));
        sections.forEach(s -> json.put(s.key(), s.data()));
        Files.writeString(out.resolve("report.json"), Section.JSON.writeValueAsString(json));
        Files.writeString(out.resolve("report.md"), markdown());
    }

    /** report.md: the machine, the scenario, the verdict, the targets, the invariants, then the sections. */
    public String markdown() {
        Machine m = machine;
        StringBuilder s = new StringBuilder("# Seckill bench: a flash sale under load\n\n");
        s.append(f("%s · %s, %d cores, %,d MB, %s, kernel %s · %s · load average before %s, after %s\n\n", m.date(),
                m.cpu(), m.cores(), m.memoryMb(), m.os(), m.kernel(), m.java(), m.loadAverageBefore(),
                m.loadAverageAfter()));
        s.append("Scenario: ").append(scenario.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "))).append(".\n\n");
        List<Section.Goal> goals = goals();
        s.append(f("**Verdict: %s; %d of %d targets met.**\n\n", ok() ? "every invariant holds" : "INVARIANTS VIOLATED",
                goals.stream().filter(Section.Goal::met).count(), goals.size()));
        Section targets = new Section("goals", "Targets").table("target", "measured", "wanted", "met");
        goals.forEach(g -> targets.row(g.name(), g.measured(), g.target(), g.met() ? "yes" : "**no**"));
        Section checks = new Section("invariants", "Invariants, read from MySQL and Redis after the writer caught up")
                .table("sale", "id", "stock", "202 answers", "DB orders", "DB stock", "Redis remaining", "Redis buyers",
                        "oversold", "duplicates", "lost", "holds");
        for (Check c : invariants) {
            SaleSummary r = c.check();
            checks.row(c.sale(), r.saleId(), f("%,d", r.stockTotal()), f("%,d", r.accepted()), f("%,d", r.dbOrders()),
                    f("%,d", r.dbStock()), r.redisRemaining() == null ? "none" : f("%,d", r.redisRemaining()),
                    f("%,d", r.redisBuyers()), Math.max(0, r.liveOrders() - r.stockTotal()),
                    r.dbOrders() - r.distinctBuyers(), r.lost(),
                    c.ok() ? "yes" : "**no**: " + String.join("; ", c.failures()));
        }
        Stream.concat(Stream.of(targets, checks), sections.stream()).forEach(x -> s.append(x.markdown()).append('\n'));
        return s.toString();
    }
}
