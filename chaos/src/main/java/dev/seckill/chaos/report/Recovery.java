package dev.seckill.chaos.report;

import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Time to recover: for each fault, the sales it affected (those with a purchase answered otherwise than good in its
 * window: good is 202, 409 ALREADY_PURCHASED or 410), and for each of them the time from the heal to its first good
 * purchase answer after it; a fault's recovery is its slowest affected sale's. Per kind: how many faults, how many
 * affected any sale, the median and the longest recovery, and how many never recovered before the workload ended.
 */
public final class Recovery {

    /** One fault's recovery: -1 when no sale was affected, null millis when an affected sale never recovered. */
    public record OfFault(int number, FaultKind kind, List<Long> affectedSales, Long millis, boolean recovered) {
    }

    public record OfKind(FaultKind kind, int faults, int affecting, Long medianMillis, Long maxMillis,
                         int notRecovered) {
    }

    private Recovery() {
    }

    public static boolean good(Op o) {
        return o.status() == 202 || o.status() == 410 || o.status() == 409 && "ALREADY_PURCHASED".equals(o.code());
    }

    public static List<OfFault> perFault(List<Op> ops, List<Window> windows) {
        List<Op> purchases = ops.stream().filter(o -> o.kind() == OpKind.PURCHASE)
                .sorted(Comparator.comparingLong(Op::endMillis)).toList();
        List<OfFault> out = new ArrayList<>();
        for (Window w : windows) {
            if (w.injectedMillis() <= 0 || w.healedMillis() <= 0) {
                continue;
            }
            TreeSet<Long> affected = new TreeSet<>();
            for (Op o : purchases) {
                if (w.covers(o.startMillis()) && !good(o)) {
                    affected.add(o.saleId());
                }
            }
            Long worst = affected.isEmpty() ? null : 0L;
            boolean recovered = true;
            for (long sale : affected) {
                OptionalLong first = purchases.stream()
                        .filter(o -> o.saleId() == sale && o.endMillis() >= w.healedMillis() && good(o))
                        .mapToLong(Op::endMillis).findFirst();
                if (first.isEmpty()) {
                    recovered = false;
                } else {
                    worst = Math.max(worst, first.getAsLong() - w.healedMillis());
                }
            }
            out.add(new OfFault(w.event().number(), w.event().fault().kind(), List.copyOf(affected),
                    affected.isEmpty() ? null : worst, recovered));
        }
        return out;
    }

    public static List<OfKind> perKind(List<OfFault> faults) {
        Map<FaultKind, List<OfFault>> by = new EnumMap<>(FaultKind.class);
        faults.forEach(f -> by.computeIfAbsent(f.kind(), k -> new ArrayList<>()).add(f));
        List<OfKind> out = new ArrayList<>();
        by.forEach((kind, list) -> {
            List<Long> times = list.stream().filter(f -> f.millis() != null && f.recovered()).map(OfFault::millis)
                    .sorted().toList();
            int affecting = (int) list.stream().filter(f -> !f.affectedSales().isEmpty()).count();
            int notRecovered = (int) list.stream().filter(f -> !f.recovered()).count();
            out.add(new OfKind(kind, list.size(), affecting, times.isEmpty() ? null : times.get(times.size() / 2),
                    times.isEmpty() ? null : times.getLast(), notRecovered));
        });
        return out;
    }
}
