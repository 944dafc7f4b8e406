package dev.seckill.chaos.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Schedule;
import dev.seckill.chaos.fault.Window;
import dev.seckill.chaos.load.RunSale;
import dev.seckill.chaos.settle.EndOfRun;
import dev.seckill.check.Verdict;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a run states, as data: report.json is this record as Jackson writes it (the schedule planned and real, the
 * answers in time, the recovery, the settling and the checker's verdict); summary.md is its few lines (also printed).
 * The operations themselves are history.jsonl's.
 */
public record ChaosReport(long seed, double minutes, String faults, String replay, long startMillis,
                          long workloadEndMillis, long endMillis, int operations, List<RunSale> sales,
                          List<Long> saleIds, List<Window> schedule, Timeliness.Table timeliness,
                          List<Recovery.OfFault> recoveryPerFault, List<Recovery.OfKind> recoveryPerKind,
                          EndOfRun.Outcome settlement, Boolean holds, String checker, Verdict verdict) {

    /** Durations (a fault's planned start and span) as milliseconds. */
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATE_TIMESTAMPS_AS_NANOSECONDS)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /** Whether the run passes: the checker's verdict holds and every operation came in time (but the excused). */
    public boolean passed() {
        return Boolean.TRUE.equals(holds) && timeliness.overdue().isEmpty();
    }

    /** The summary's lines: the verdicts first, then what to read next. */
    public List<String> summary() {
        List<String> out = new ArrayList<>();
        Map<FaultKind, Long> kinds = schedule.stream().collect(Collectors.groupingBy(w -> w.event().fault().kind(),
                () -> new EnumMap<>(FaultKind.class), Collectors.counting()));
        out.add(String.format(Locale.ROOT, "Chaos run, seed %d: %.1f min, %d faults %s, %d operations over %d sales.",
                seed, minutes, schedule.size(), kinds, operations, saleIds.size()));
        out.add("Invariants (seckill-check): " + (holds == null ? "no verdict: " + checker
                : holds ? "HOLD" : "VIOLATED: " + verdict.summary().replace("\n", "; "))
                + (verdict == null || verdict.exceptions().isEmpty() ? ""
                : " (" + verdict.exceptions().size() + " documented exceptions)"));
        long excused = timeliness.rows().getLast().excused();
        long counted = timeliness.rows().getLast().operations() - excused;
        out.add(String.format(Locale.ROOT, "Answers within the %d ms deadline: %s; overdue (no answer or later than "
                        + "the deadline plus %d ms, not excused): %d of %d (%d excused); %.1f %% in time in every row: %s.",
                timeliness.deadlineMillis(), timeliness.overdue().isEmpty() ? "HOLD" : "VIOLATED",
                Timeliness.MARGIN_MILLIS, timeliness.overdue().size(), counted, excused, Timeliness.TARGET_PERCENT,
                timeliness.targetMet() ? "met" : "NOT met"));
        out.add("Recovery, median / longest per kind: " + recoveryPerKind.stream().map(k -> String.format(Locale.ROOT,
                "%s %s / %s (%d never)", k.kind(), secs(k.medianMillis()), secs(k.maxMillis()),
                k.notRecovered())).collect(Collectors.joining(", ")) + ".");
        if (settlement != null && !settlement.unsettled().isEmpty()) {
            out.add("Not settled before the check: " + String.join("; ", settlement.unsettled()));
        }
        schedule.stream().filter(w -> w.problem() != null)
                .forEach(w -> out.add("Fault #" + w.event().number() + " (" + Schedule.describe(w.event().fault())
                        + "): " + w.problem()));
        out.add("Replay: `" + replay + "`. Details: report.json; every operation: history.jsonl.");
        return out;
    }

    /** Writes report.json and summary.md into {@code out}. */
    public void write(Path out) throws IOException {
        Files.createDirectories(out);
        JSON.writeValue(out.resolve("report.json").toFile(), this);
        Files.writeString(out.resolve("summary.md"), String.join("\n\n", summary()) + "\n");
    }

    private static String secs(Long millis) {
        return millis == null ? "-" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
