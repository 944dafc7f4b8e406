package dev.seckill.bench.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sections in the report's order; the targets table: every section's targets, the fixed order's first, then the
 * others', then the invariants'.
 */
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

    @Test
    void theSectionsComeInTheReportsOrderNotTheStepsOrder() {
        List<Section> byStep = List.of(new Section("ceilings", "Ceilings"), new Section("flashSale", "Flash sale"),
                new Section("unlisted", "Unlisted"), new Section("hotSale", "Hot sale"), new Section("cpu", "CPU"));

        BenchReport report = new BenchReport(BenchReport.Machine.now(), Map.of(), List.of(), byStep);

        assertEquals(List.of("flashSale", "cpu", "hotSale", "ceilings", "unlisted"),
                report.sections().stream().map(Section::key).toList());
        String md = report.markdown();
        assertTrue(md.indexOf("## Flash sale") < md.indexOf("## CPU") && md.indexOf("## CPU") < md.indexOf(
                "## Hot sale") && md.indexOf("## Hot sale") < md.indexOf("## Ceilings"), md);
    }
}
