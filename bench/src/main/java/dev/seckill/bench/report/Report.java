package dev.seckill.bench.report;

import dev.seckill.bench.measure.CpuWindow;
import dev.seckill.bench.measure.Invariants;
import dev.seckill.bench.measure.Machine;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Memory;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.measure.Timeline;
import dev.seckill.bench.scenario.Ceilings;
import dev.seckill.bench.scenario.FlashSale;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.seckill.bench.report.Section.f;

/**
 * One bench run's verdict (targets, invariants) and its flash sale, memory and CPU, written as report.json, report.md
 * and the charts; the scenarios' sections are appended to both after it ({@link Section#addTo}).
 */
public record Report(Machine machine, Map<String, Object> scenario, boolean ok, List<Goal> goals,
        List<Check> invariants,
              FlashSale flashSale, List<Map<String, Object>> timeline, List<Memory> memory,
              List<CpuWindow.Cpu> cpu, List<String> charts, @JsonIgnore Ceilings.Result ceilingResult) {

    /** One target: measured against wanted. */
    public record Goal(String name, String measured, String target, boolean met) {
    }

    /** The invariant check of one sale of the run, read from MySQL and Redis directly. */
    public record Check(String sale, @JsonUnwrapped Invariants.Report check) {

        public static Check of(String sale, Invariants.Report r) {
            return new Check(sale, r);
        }
    }

    public static final String CPU_PNG = "cpu.png";
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    public static final String MEMORY_PNG = "memory.png";

    /** Writes report.json, report.md and the charts; returns the paths written. */
    public List<Path> write(Path out, Timeline t, List<Sampler.Sample> samples, Map<String,
            Long> marks) throws IOException {
        Files.createDirectories(out);
        List<Path> written = new ArrayList<>();
        written.add(Files.writeString(out.resolve("report.json"), ReportSections.JSON.writeValueAsString(this)));
        written.addAll(new Charts(t, samples, marks, flashSale).write(out));
        written.add(Files.writeString(out.resolve("report.md"), markdown()));
        return written;
    }

    /** report.md's head: the machine, the scenario, the verdict, the targets, the invariants, then the sections. */
    public String markdown() {
        Machine m = machine;
        StringBuilder s = new StringBuilder("# Seckill bench: a flash sale under load\n\n");
        s.append(f("%s · %s, %d cores, %,d MB, %s, kernel %s · %s · load average before %s, after %s\n\n", m.date(),
                m.cpu(), m.cores(), m.memoryMb(), m.os(), m.kernel(), m.java(), m.loadAverageBefore(),
                m.loadAverageAfter()));
        s.append("Scenario: ").append(scenario.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "))).append(".\n\n");
        boolean hold = invariants.stream().allMatch(c -> c.check().ok());
        s.append(f("**Verdict: %s; %d of %d targets met.**\n\n", hold ? "every invariant holds" : "INVARIANTS VIOLATED",
                goals.stream().filter(Goal::met).count(), goals.size()));
        Section targets = new Section("goals", "Targets").table("target", "measured", "wanted", "met");
        goals.forEach(g -> targets.row(g.name(), g.measured(), g.target(), g.met() ? "yes" : "**no**"));
        Section checks = new Section("invariants", "Invariants, read from MySQL and Redis after the writer caught up")
                .table("sale", "id", "stock", "202 answers", "DB orders", "DB stock", "Redis remaining", "Redis buyers",
                        "oversold", "duplicates", "lost", "holds");
        for (Check c : invariants) {
            Invariants.Report r = c.check();
            checks.row(c.sale(), r.saleId(), f("%,d", r.stockTotal()), f("%,d", r.accepted()), f("%,d", r.dbOrders()),
                    f("%,d", r.dbStock()), r.redisRemaining() == null ? "none" : f("%,d", r.redisRemaining()),
                    f("%,d", r.redisBuyers()), Math.max(0, r.liveOrders() - r.stockTotal()),
                    r.dbOrders() - r.distinctBuyers(), r.lost(),
                    r.ok() ? "yes" : "**no**: " + String.join("; ", r.violations()));
        }
        Measured shortCircuit = ceilingResult == null ? null : ceilingResult.best().get(Ceilings.SHORT_CIRCUIT_CLIENT);
        for (Section section : List.of(targets, checks,
                flashSale.section(shortCircuit == null ? null : shortCircuit.rps()), Memory.section(memory),
                CpuWindow.section(cpu))) {
            s.append(section.markdown()).append('\n');
        }
        return s.toString();
    }

    public static List<Map<String, Object>> timeline(Timeline t) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Timeline.Bucket b : t.buckets) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("at", b.at());
            row.put("answersPerSecond", t.rate(b, null));
            row.put("outcomes", b.outcomes());
            row.put("latencyMs", b.latency());
            rows.add(row);
        }
        return rows;
    }

    public static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
