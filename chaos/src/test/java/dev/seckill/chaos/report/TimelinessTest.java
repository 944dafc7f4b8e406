package dev.seckill.chaos.report;

import dev.seckill.chaos.fault.Fault;
import dev.seckill.chaos.fault.FaultEvent;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class TimelinessTest {

    private static Op op(long start, long end, int status) {
        return op(start, end, status, "lb");
    }

    private static Op op(long start, long end, int status, String entry) {
        return new Op(start, OpKind.PURCHASE, "r" + start, 1, start, 0, start, end, status, null, null, entry, null);
    }

    private static Window window(int n, Fault f, long injected, long healed) {
        return new Window(new FaultEvent(n, f, Duration.ZERO, Duration.ofSeconds(1)), injected, healed, null);
    }

    private static Timeliness.Row row(Timeliness.Table t, String name) {
        return t.rows().stream().filter(r -> r.faults().equals(name)).findFirst().orElseThrow(() ->
                new AssertionError("no row " + name + " in " + t.rows()));
    }

    @Test
    void eachOperationCountsUnderTheFaultsItStartedInAsInTimeLateOrUnanswered() {
        List<Op> ops = List.of(
                op(100, 300, 202),            // no fault, in time
                op(1_100, 1_400, 503),        // pause edge: in time
                op(1_200, 5_500, 503),        // pause edge: late, past the margin
                op(1_300, 7_300, 0, "lb-2"),  // pause edge: no answer
                op(2_900, 3_050, 0),          // sent to lb just before its kill, cut off with it: excused
                op(3_100, 3_200, 410, "lb-2"),// kill lb: in time at the other entry
                op(3_200, 9_200, 0, "lb-2")); // kill lb: no answer from the other entry, not excused
        Timeliness.Table t = Timeliness.of(ops, List.of(
                window(1, new Fault.Pause("edge-1"), 1_000, 2_000),
                window(2, new Fault.Kill("lb"), 3_000, 4_000)), 3_000);
        assertEquals(new Timeliness.Row("pause edge", 3, 1, 1, 1, 0, row(t, "pause edge").p99Millis()),
                row(t, "pause edge"));
        assertEquals(2, row(t, "kill lb").operations());
        assertEquals(1, row(t, "kill lb").unanswered());
        assertEquals(0, row(t, "kill lb").excused());
        assertEquals(1, row(t, "no fault").excused(), "the cut-off one started before the kill");
        assertEquals(100.0, row(t, "no fault").inTimePercent(), "the excused one is left out of the share");
        assertEquals(7, row(t, "whole run").operations());
        assertEquals(3, row(t, "whole run").unanswered());
        assertEquals(List.of(ops.get(2), ops.get(3), ops.get(6)), t.overdue(),
                "the late and the unanswered but the one cut off with its entry point");
        assertFalse(t.targetMet());
    }

    @Test
    void aLateAnswerWithinTheMarginIsLateButNotOverdue() {
        Timeliness.Table t = Timeliness.of(List.of(op(0, 3_500, 503)), List.of(), 3_000);
        assertEquals(1, row(t, "whole run").late());
        assertEquals(List.of(), t.overdue());
    }

    @Test
    void aSaleCreatedOnAnAdminListenerIsNoShoppersOperationAndHasNoDeadline() {
        Op create = new Op(1, OpKind.CREATE_SALE, "r1", 1, 0, 50, 0, 10_000, 201, null, null, "service-2", null);
        Timeliness.Table t = Timeliness.of(List.of(create, op(0, 100, 202)), List.of(), 3_000);
        assertEquals(1, row(t, "whole run").operations());
        assertEquals(List.of(), t.overdue());
    }

    @Test
    void aPartitionCountsUnderTheNodeItCutOff() {
        Timeliness.Table t = Timeliness.of(List.of(op(1_500, 1_600, 202)), List.of(window(1,
                new Fault.Partition(List.of("service-1", "service-2"), List.of("redis-3"), false), 1_000, 2_000)), 3_000);
        assertEquals(1, row(t, "partition redis").operations());
    }
}
