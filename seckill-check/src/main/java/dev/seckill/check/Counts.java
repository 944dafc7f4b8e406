package dev.seckill.check;


import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What the checker looked at and what it found, by kind.
 *
 * @param operations every operation of the history
 * @param answers    operations by {@code "<kind> <status> <code>"} ({@code "PURCHASE 202 QUEUED"}, {@code "PAY 0"}:
 *                   no answer, no code)
 * @param sales      the sales of the final state
 * @param orders     their rows
 */
public record Counts(long operations, Map<String, Long> answers, long sales, long orders,
                     Map<Violation.Kind, Long> violations, Map<Excused.Kind, Long> exceptions) {

    static Counts of(List<Op> history, FinalState state, Findings f) {
        return new Counts(history.size(),
                history.stream().collect(Collectors.groupingBy(Counts::answer, TreeMap::new, Collectors.counting())),
                state.sales().size(), state.sales().stream().mapToLong(s -> s.orders().size()).sum(),
                f.violations.stream().collect(Collectors.groupingBy(Violation::kind, TreeMap::new,
                        Collectors.counting())),
                f.exceptions.stream().collect(Collectors.groupingBy(Excused::kind, TreeMap::new,
                        Collectors.counting())));
    }

    private static String answer(Op op) {
        return op.kind() + " " + op.status() + (op.code() == null ? "" : " " + op.code());
    }
}
