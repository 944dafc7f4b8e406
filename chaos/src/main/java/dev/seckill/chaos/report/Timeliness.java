package dev.seckill.chaos.report;

import dev.seckill.chaos.fault.Fault;
import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import dev.seckill.testkit.ClusterStack;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Answers in time: for each fault by its kind and the role of the node it hit ("pause edge", "kill lb"), for the
 * operations that started in no fault's window, and for the whole run, how many operations were answered within the
 * deadline, answered later, or got no answer (status 0), and the 99th percentile of the answer time of those
 * answered. An operation in two overlapping windows counts in both rows. Only the shoppers' operations count
 * (purchases and payments, through an entry point); the workload's sale creations go to a service's admin listener,
 * which has no deadline (docs/contract.md, "The deadline").
 * <p>
 * The documented exception (docs/chaos.md): an operation left unanswered because the entry point it was sent to was
 * killed or paused while it waited (the shopper's next click goes to the other entry, a new operation). It is counted
 * apart ({@link Row#excused}) and left out of the share in time.
 */
public final class Timeliness {

    /** Past the deadline by more than this, an answer is late beyond doubt (the client's clock and the hops' own). */
    public static final long MARGIN_MILLIS = 1000;
    public record Row(String faults, long operations, long inTime, long late, long unanswered, long excused,
                      Long p99Millis) {

        /** The share of the operations answered within the deadline, the excused left out, in percent. */
        public double inTimePercent() {
            return operations == excused ? 100 : 100.0 * inTime / (operations - excused);
        }
    }

    /** The share of a row's operations answered within the deadline that the system is built to, in percent. */
    public static final double TARGET_PERCENT = 99.9;

    /** The rows, then the operations outside the documented exception answered past the deadline plus the margin. */
    public record Table(long deadlineMillis, List<Row> rows, List<Op> overdue) {

        /** Whether every row has {@link #TARGET_PERCENT} in time. */
        public boolean targetMet() {
            return rows.stream().allMatch(r -> r.inTimePercent() >= TARGET_PERCENT);
        }
    }

    private Timeliness() {
    }

    public static Table of(List<Op> ops, List<Window> windows, long deadlineMillis) {
        Map<String, List<Op>> byFault = new TreeMap<>();
        List<Op> outside = new ArrayList<>();
        List<Op> overdue = new ArrayList<>();
        Set<Op> excused = new HashSet<>();
        List<Op> shoppers = ops.stream().filter(o -> o.kind() != OpKind.CREATE_SALE).toList();
        for (Op o : shoppers) {
            boolean inAny = false;
            for (Window w : windows) {
                if (w.covers(o.startMillis())) {
                    byFault.computeIfAbsent(w.event().fault().kind() + " " + role(w),
                            k -> new ArrayList<>()).add(o);
                    inAny = true;
                }
                if (!o.answered() && cutOffBy(o, w)) {
                    excused.add(o);
                }
            }
            if (!inAny) {
                outside.add(o);
            }
            if (!excused.contains(o)
                    && (!o.answered() || o.endMillis() - o.startMillis() > deadlineMillis + MARGIN_MILLIS)) {
                overdue.add(o);
            }
        }
        Map<String, List<Op>> rows = new LinkedHashMap<>(byFault);
        rows.put("no fault", outside);
        rows.put("whole run", shoppers);
        List<Row> out = new ArrayList<>();
        rows.forEach((name, list) -> out.add(row(name, list, excused, deadlineMillis)));
        return new Table(deadlineMillis, out, overdue);
    }

    /** Whether {@code w} killed or paused the very entry point {@code o} went to while it waited there. */
    private static boolean cutOffBy(Op o, Window w) {
        FaultKind kind = w.event().fault().kind();
        return kind != FaultKind.PARTITION && w.injectedMillis() > 0 && o.node() != null
                && o.node().equals(w.event().fault().nodes().getFirst())
                && w.injectedMillis() <= o.endMillis() && (w.healedMillis() <= 0 || o.startMillis() < w.healedMillis());
    }

    /** The role of the node the fault hit (a partition's: the one cut off): edge-1 is an edge. */
    private static String role(Window w) {
        String node = w.event().fault() instanceof Fault.Partition p ? p.isolated()
                : w.event().fault().nodes().getFirst();
        return ClusterStack.kindOf(node);
    }

    private static Row row(String name, List<Op> ops, Set<Op> excusedOps, long deadline) {
        long inTime = 0;
        long late = 0;
        long unanswered = 0;
        long excused = 0;
        Histogram answered = new Histogram(3_600_000L, 3);
        for (Op o : ops) {
            if (!o.answered()) {
                unanswered++;
                if (excusedOps.contains(o)) {
                    excused++;
                }
                continue;
            }
            long took = Math.max(0, o.endMillis() - o.startMillis());
            answered.recordValue(Math.min(took, answered.getHighestTrackableValue()));
            if (took <= deadline) {
                inTime++;
            } else {
                late++;
            }
        }
        return new Row(name, ops.size(), inTime, late, unanswered, excused,
                answered.getTotalCount() == 0 ? null : answered.getValueAtPercentile(99));
    }
}
