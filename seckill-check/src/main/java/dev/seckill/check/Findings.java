package dev.seckill.check;


import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** What the checks found so far: the violations and the documented exceptions, in the order found. */
final class Findings {

    /** How many request ids a line shows before it says how many more there are. */
    private static final int SHOWN = 5;

    final List<Violation> violations = new ArrayList<>();
    final List<Excused> exceptions = new ArrayList<>();

    void violation(Violation.Kind kind, long saleId, Long userId, String orderId, String detail,
                   Collection<Op> involved, String... moreRequestIds) {
        violations.add(new Violation(kind, saleId, userId, orderId, detail, requestIds(involved, moreRequestIds)));
    }

    void excused(Excused.Kind kind, long saleId, FinalOrder row, String detail, Collection<Op> involved) {
        exceptions.add(new Excused(kind, saleId, row.userId(), row.id(), detail, requestIds(involved, row.requestId())));
    }

    /** The operations' request ids, then any more known (a row's own), each once; nulls left out. */
    static List<String> requestIds(Collection<Op> ops, String... more) {
        Set<String> ids = new LinkedHashSet<>();
        ops.stream().map(Op::requestId).filter(Objects::nonNull).forEach(ids::add);
        for (String id : more) {
            if (id != null) {
                ids.add(id);
            }
        }
        return List.copyOf(ids);
    }

    static String shortList(List<String> ids) {
        return ids.size() <= SHOWN ? ids.toString()
                : ids.subList(0, SHOWN) + " and " + (ids.size() - SHOWN) + " more";
    }
}
