package dev.seckill.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The targets table: every section's targets, the fixed order's first, then the others', then the invariants'. */
class BenchReportTest {

    @Test
    void aSectionOutsideTheFixedOrderStillHasItsTargetsInTheTable() {
        Section line = new Section("waitingRoom", "Waiting room").goal("polls answered by the edge", "99.5 %",
                ">= 99 %", true);
        Section flash = new Section("flashSale", "Flash sale").goal("flash sale p99", "12 ms", "<= 20 ms", true);
        BenchReport report = new BenchReport(BenchReport.Machine.now(), Map.of(), List.of(), List.of(line, flash));

        assertEquals(List.of("flash sale p99", "polls answered by the edge",
                "oversold, duplicates, lost orders in every sale of the run"),
                report.goals().stream().map(Section.Goal::name).toList());
    }
}
