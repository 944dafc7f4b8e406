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

class TimelinessTest {

    private static Op op(long start, long end, int status) {
        return new Op(start, OpKind.PURCHASE, "r" + start, 1, start, 0, start, end, status, null, null, "lb", null);
    }

    private static Window window(int n, Fault f, long injected, long healed) {
        return new Window(new FaultEvent(n, f, Duration.ZERO, Duration.ofSeconds(1)), injected, healed);
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
                op(1_300, 7_300, 0),          // pause edge: no answer
                op(3_100, 3_200, 410),        // kill lb: in time
                op(3_200, 9_200, 0));         // kill lb: no answer, excused
        Timeliness.Table t = Timeliness.of(ops, List.of(
                window(1, new Fault.Pause("edge-1"), 1_000, 2_000),
                window(2, new Fault.Kill("lb"), 3_000, 4_000)), 3_000);
        assertEquals(new Timeliness.Row("pause edge", 3, 1, 1, 1, row(t, "pause edge").p99Millis()), row(t, "pause edge"));
        assertEquals(2, row(t, "kill lb").operations());
        assertEquals(1, row(t, "kill lb").unanswered());
        assertEquals(1, row(t, "no fault").inTime());
        assertEquals(6, row(t, "whole run").operations());
        assertEquals(2, row(t, "whole run").unanswered());
        assertEquals(List.of(ops.get(2), ops.get(3)), t.overdue(),
                "the late and the unanswered outside the lb's own faults; the lb's unanswered one is excused");
    }

    @Test
    void aLateAnswerWithinTheMarginIsLateButNotOverdue() {
        Timeliness.Table t = Timeliness.of(List.of(op(0, 3_500, 503)), List.of(), 3_000);
        assertEquals(1, row(t, "whole run").late());
        assertEquals(List.of(), t.overdue());
    }

    @Test
    void aPartitionCountsUnderTheNodeItCutOff() {
        Timeliness.Table t = Timeliness.of(List.of(op(1_500, 1_600, 202)), List.of(window(1,
                new Fault.Partition(List.of("service-1", "service-2"), List.of("redis-3"), false), 1_000, 2_000)), 3_000);
        assertEquals(1, row(t, "partition redis").operations());
    }
}
