package dev.seckill.check;


import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.seckill.check.Violation.Kind.ANSWER_MISMATCH;
import static dev.seckill.check.Violation.Kind.LOST_ORDER;
import static dev.seckill.check.Violation.Kind.ROW_WITHOUT_ANSWER;
import static dev.seckill.check.Violation.Kind.SECOND_ORDER;

/**
 * A sale's purchase answers held against its rows (docs/invariants.md 2, 3 and 6): one order per buyer, every granted
 * order written, every ALREADY_PURCHASED naming the buyer's own order; and each row explained by an answer, or by one
 * of the two documented exceptions (a 503 without an order id, or no answer, before it), else a violation.
 */
final class AnswerChecks {

    private AnswerChecks() {
    }

    static void check(FinalSale sale, SaleOps ops, Recording recording, Findings f) {
        Map<String, FinalOrder> byId = sale.orders().stream().collect(Collectors.toMap(FinalOrder::id,
                Function.identity()));
        Map<Long, List<FinalOrder>> rowsByUser = sale.orders().stream().collect(Collectors.groupingBy(FinalOrder::userId));
        Set<Long> users = new HashSet<>(ops.users());
        users.addAll(rowsByUser.keySet());
        for (long user : users.stream().sorted().toList()) {
            List<FinalOrder> rows = rowsByUser.getOrDefault(user, List.of());
            List<Op> mine = ops.of(user);
            Set<String> named = answers(sale.saleId(), user, mine, rows, byId, f);
            if (rows.size() > 1) {
                f.violation(SECOND_ORDER, sale.saleId(), user, null, rows.size() + " rows: "
                        + rows.stream().map(FinalOrder::id).toList(), ops.naming(rows));
            } else if (named.size() > 1) {
                f.violation(SECOND_ORDER, sale.saleId(), user, null, "answered " + named.size()
                        + " different order ids: " + named, mine.stream().filter(o -> named.contains(o.orderId()))
                        .toList());
            }
            rows.forEach(r -> explain(sale.saleId(), r, mine, recording, f));
        }
    }

    /**
     * Checks each answer of one buyer that names an order, and returns the order ids they told the buyer were theirs
     * (an ALREADY_PURCHASED naming an order not theirs is a mismatch, reported once as such).
     */
    private static Set<String> answers(long saleId, long user, List<Op> mine, List<FinalOrder> rows,
                                       Map<String, FinalOrder> byId, Findings f) {
        Set<String> named = new LinkedHashSet<>();
        for (Op op : mine) {
            if (SaleOps.grants(op)) {
                named.add(op.orderId());
                FinalOrder row = byId.get(op.orderId());
                if (row == null || row.userId() != user) {
                    f.violation(LOST_ORDER, saleId, user, op.orderId(), "answered " + op.status() + " "
                            + op.code() + " naming the order, which has no row" + (row == null ? ""
                            : " of this user (the row is user " + row.userId() + "'s)"), List.of(op));
                }
            } else if (op.status() == 202) {
                f.violation(ANSWER_MISMATCH, saleId, user, null, "answered 202 naming no order", List.of(op));
            } else if (SaleOps.alreadyPurchased(op)) {
                if (op.orderId() != null && rows.stream().anyMatch(r -> r.id().equals(op.orderId()))) {
                    named.add(op.orderId());
                } else {
                    f.violation(ANSWER_MISMATCH, saleId, user, op.orderId(), "answered 409 ALREADY_PURCHASED naming "
                            + (op.orderId() == null ? "no order" : "this order") + "; the user's row is "
                            + (rows.isEmpty() ? "none" : rows.stream().map(FinalOrder::id).toList()), List.of(op));
                }
            }
        }
        return named;
    }

    /**
     * A row no 202 and no 503 names was written by an attempt whose answer said nothing of it: a 503 without an
     * order id (the service died after Kafka's ack, or the edge timed out first) or no answer at all, before any
     * ALREADY_PURCHASED told the buyer of it. Both are documented exceptions; a row with neither before it (its
     * buyer heard only refusals such as 410 or 429, or never clicked) is a violation: an answer that lied or an
     * order nobody asked for. Unless the client dropped attempts unrecorded ({@link Recording#IN_FLIGHT_DROPPED}):
     * then such a row is the third exception, its answer unknown.
     */
    private static void explain(long saleId, FinalOrder row, List<Op> mine, Recording recording, Findings f) {
        List<Op> naming = mine.stream().filter(o -> row.id().equals(o.orderId())).toList();
        if (naming.stream().anyMatch(SaleOps::grants)) {
            return;
        }
        long firstNamed = naming.stream().mapToLong(Op::startMillis).min().orElse(Long.MAX_VALUE);
        List<Op> unavailable = new ArrayList<>();
        List<Op> silent = new ArrayList<>();
        for (Op op : mine) {
            if (op.startMillis() < firstNamed && op.status() == 503 && op.orderId() == null) {
                unavailable.add(op);
            } else if (op.startMillis() < firstNamed && !op.answered()) {
                silent.add(op);
            }
        }
        String learned = naming.isEmpty() ? "no answer names it" : "a later ALREADY_PURCHASED named it";
        if (!unavailable.isEmpty()) {
            f.excused(Excused.Kind.WRITTEN_AFTER_503, saleId, row, "written after " + unavailable.size()
                    + " 503(s) without an order id; " + learned, unavailable);
        } else if (!silent.isEmpty()) {
            f.excused(Excused.Kind.WRITTEN_AFTER_NO_ANSWER, saleId, row, "written after " + silent.size()
                    + " purchase(s) without an answer; " + learned, silent);
        } else if (recording == Recording.IN_FLIGHT_DROPPED) {
            f.excused(Excused.Kind.WRITTEN_AFTER_UNRECORDED, saleId, row, "no recorded answer explains it; the "
                    + "client dropped its attempts in flight at its deadline unrecorded, one may have written it; "
                    + learned + "; the buyer " + heard(mine), mine);
        } else {
            f.violation(ROW_WITHOUT_ANSWER, saleId, row.userId(), row.id(), "no 202 or 503 names it and no 503 "
                    + "without an order id or unanswered purchase came before; " + learned + "; the buyer "
                    + heard(mine), mine, row.requestId());
        }
    }

    /** What a buyer was answered, in order ("heard 410 SOLD_OUT, 429 RATE_LIMITED"), or that they never clicked. */
    private static String heard(List<Op> mine) {
        return mine.isEmpty() ? "never clicked" : "heard " + mine.stream().map(o -> o.status()
                + (o.code() == null ? "" : " " + o.code())).collect(Collectors.joining(", "));
    }
}
