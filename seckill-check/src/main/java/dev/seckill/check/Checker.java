package dev.seckill.check;


import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static dev.seckill.check.Violation.Kind.ANSWER_MISMATCH;
import static dev.seckill.check.Violation.Kind.CONSERVATION;
import static dev.seckill.check.Violation.Kind.CONTRACT;
import static dev.seckill.check.Violation.Kind.SALE_MISSING;

/**
 * Holds every answer of a history against the final state of its sales: per sale, the state's own promises
 * ({@link StateChecks}), then the purchase answers against the rows ({@link AnswerChecks}) and the SOLD_OUTs against
 * the units ({@link RefusalChecks}); then every 200 to a pay against its order's end state, and every answer against
 * the OpenAPI document. docs/chaos.md ("The checker") lists what each violation means.
 */
public final class Checker {

    private Checker() {
    }

    /** The verdict on {@code history} (every operation of the run) given the state read after healing. */
    public static Verdict check(List<Op> history, FinalState state) {
        return check(history, state, Recording.EVERY_ATTEMPT);
    }

    /**
     * The same for a history that may lack attempts: {@code recording} says whether every attempt is in it (a row
     * no answer explains is then a violation) or the client dropped those in flight at its deadline.
     */
    public static Verdict check(List<Op> history, FinalState state, Recording recording) {
        Findings f = new Findings();
        Map<Long, List<Op>> purchases = history.stream().filter(o -> o.kind() == OpKind.PURCHASE)
                .collect(Collectors.groupingBy(Op::saleId));
        Map<String, List<Op>> pays = history.stream().filter(o -> o.kind() == OpKind.PAY && o.orderId() != null)
                .collect(Collectors.groupingBy(Op::orderId));
        for (FinalSale sale : state.sales()) {
            SaleOps ops = new SaleOps(purchases.getOrDefault(sale.saleId(), List.of()), pays);
            if (!sale.found()) {
                f.violation(SALE_MISSING, sale.saleId(), null, null, "MySQL has no row of the sale",
                        ops.purchases());
                continue;
            }
            StateChecks.check(sale, ops, f);
            AnswerChecks.check(sale, ops, recording, f);
            RefusalChecks.check(sale, ops, f);
        }
        unread(history, state, f);
        created(history, state, f);
        paid(history, state, f);
        contract(history, f);
        return new Verdict(List.copyOf(f.violations), List.copyOf(f.exceptions), Counts.of(history, state, f),
                state.sales().stream().map(s -> SaleSummary.of(s, purchases.getOrDefault(s.saleId(), List.of()), f))
                        .toList());
    }

    /** Operations of sales the final state did not read: nothing to hold them against. */
    private static void unread(List<Op> history, FinalState state, Findings f) {
        Set<Long> read = state.sales().stream().map(FinalSale::saleId).collect(Collectors.toSet());
        Map<Long, List<Op>> unread = history.stream().filter(o -> o.saleId() > 0 && !read.contains(o.saleId()))
                .collect(Collectors.groupingBy(Op::saleId, TreeMap::new, Collectors.toList()));
        unread.forEach((sale, ops) -> f.violation(SALE_MISSING, sale, null, null, "the final state did not read the "
                + "sale; its " + ops.size() + " operation(s) are unchecked", ops));
    }

    /** A sale answered 201 has the units it was created with: stock_total never changes. */
    private static void created(List<Op> history, FinalState state, Findings f) {
        for (Op op : history) {
            if (op.kind() != OpKind.CREATE_SALE || op.status() != 201) {
                continue;
            }
            state.sale(op.saleId()).filter(s -> s.found() && s.stockTotal() != op.units()).ifPresent(s ->
                    f.violation(CONSERVATION, s.saleId(), null, null, "created with " + op.units()
                            + " units, stock_total is " + s.stockTotal(), List.of(op)));
        }
    }

    /** Every answer is one the document describes, however faulty the moment (the client recorded the misfits). */
    private static void contract(List<Op> history, Findings f) {
        for (Op op : history) {
            if (op.contract() != null) {
                f.violation(CONTRACT, op.saleId(), op.userId() > 0 ? op.userId() : null, op.orderId(), op.kind()
                        + " answered " + op.status() + (op.code() == null ? "" : " " + op.code()) + ": "
                        + op.contract().lines().findFirst().orElse(""), List.of(op));
            }
        }
    }

    /** A pay answered 200 (PAID) leaves its order PAID: a paid order never expires. */
    private static void paid(List<Op> history, FinalState state, Findings f) {
        Map<String, FinalSale> saleOf = new HashMap<>();
        Map<String, FinalOrder> rows = new HashMap<>();
        state.sales().forEach(s -> s.orders().forEach(r -> {
            saleOf.put(r.id(), s);
            rows.put(r.id(), r);
        }));
        for (Op op : history) {
            if (op.kind() != OpKind.PAY || op.status() != 200) {
                continue;
            }
            FinalOrder r = op.orderId() == null ? null : rows.get(op.orderId());
            if (r == null) {
                f.violation(ANSWER_MISMATCH, op.saleId(), op.userId(), op.orderId(), "a pay answered 200 for an order "
                        + "no sale of the final state has", List.of(op));
            } else if (r.state() != FinalOrder.State.PAID) {
                f.violation(ANSWER_MISMATCH, saleOf.get(r.id()).saleId(), r.userId(), r.id(), "a pay answered 200 "
                        + "PAID, the order is " + r.state() + " at the end", List.of(op), r.requestId());
            }
        }
    }
}
