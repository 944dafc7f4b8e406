package dev.seckill.chaos.report;

import dev.seckill.chaos.fault.Schedule;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run cut into periods by the faults' real windows: before the first fault, each fault's window (operations that
 * started between its injection and its heal), calm stretches between them, and after the last heal; each with its
 * operations counted by kind, status and code ("PURCHASE 202 QUEUED", "PAY 0" for no answer).
 */
public final class Periods {

    /** One period and its counts. */
    public record Period(String name, long fromMillis, long toMillis, Map<String, Long> counts) {

        public long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private Periods() {
    }

    public static String key(Op op) {
        return op.kind() + " " + op.status() + (op.code() == null ? "" : " " + op.code());
    }

    public static List<Period> of(List<Op> ops, List<Window> windows, long startMillis, long endMillis) {
        List<Period> out = new ArrayList<>();
        List<Window> done = windows.stream().filter(w -> w.injectedMillis() > 0).toList();
        long firstInjection = done.stream().mapToLong(Window::injectedMillis).min().orElse(endMillis);
        long lastHeal = done.stream().mapToLong(w -> w.healedMillis() > 0 ? w.healedMillis() : endMillis).max()
                .orElse(endMillis);
        out.add(period("before the faults", ops, Long.MIN_VALUE, firstInjection));
        for (Window w : done) {
            long to = w.healedMillis() > 0 ? w.healedMillis() : endMillis;
            out.add(period("#" + w.event().number() + " " + Schedule.describe(w.event().fault()), ops,
                    w.injectedMillis(), to));
        }
        out.add(period("between faults (no fault in force)", opsOutside(ops, done, firstInjection, lastHeal),
                firstInjection, lastHeal));
        out.add(period("after the faults", ops, lastHeal, Long.MAX_VALUE));
        return out;
    }

    private static List<Op> opsOutside(List<Op> ops, List<Window> windows, long from, long to) {
        return ops.stream().filter(o -> o.startMillis() >= from && o.startMillis() < to)
                .filter(o -> windows.stream().noneMatch(w -> o.startMillis() >= w.injectedMillis()
                        && o.startMillis() < (w.healedMillis() > 0 ? w.healedMillis() : Long.MAX_VALUE)))
                .toList();
    }

    private static Period period(String name, List<Op> ops, long from, long to) {
        Map<String, Long> counts = new TreeMap<>();
        for (Op o : ops) {
            if (o.startMillis() >= from && o.startMillis() < to) {
                counts.merge(key(o), 1L, Long::sum);
            }
        }
        return new Period(name, from, to == Long.MAX_VALUE ? -1 : to, counts);
    }
}
