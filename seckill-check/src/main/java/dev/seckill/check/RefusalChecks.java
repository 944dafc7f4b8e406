package dev.seckill.check;

import dev.seckill.purchase.OrderIds;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.seckill.check.Violation.Kind.SOLD_OUT_WITH_STOCK;

/**
 * A sale's 410 SOLD_OUT answers held against the units it had (docs/invariants.md 6: a 410 means no unit was left).
 *
 * <p>Nothing records the stock at the moment of an answer (the SOLD_OUT body names only the sale, and a sold-out
 * flag of the service or the edge answers for a while after Redis said so), so the check bounds it from what is
 * known: every unit taken by the end of a SOLD_OUT was taken either by an order that has a row, minted no later (an
 * order id carries its mint time, and the id is minted before its unit is taken), or by a reservation given back
 * since, whose purchase was answered 503 or not at all. Counting every such row and purchase up to the answer's end
 * (expired ones too, whose units came back later) is an upper bound on the units held at any moment until then; if
 * it is below {@code stock_total}, the stock never reached zero before the answer, not even when a flag was set: the
 * 410 refused a buyer while a unit was left. The bound is loose while purchases go unanswered (a fault window), so a
 * lie there may go unseen; it never names an honest refusal, the clocks of the client and the service (one machine)
 * agreeing within {@link #CLOCK_SLACK_MS}.
 */
final class RefusalChecks {

    /** How far the service's clock (an order id's time) may run behind the client's without a false finding. */
    static final long CLOCK_SLACK_MS = 1_000;

    private RefusalChecks() {
    }

    static void check(FinalSale sale, SaleOps ops, Findings f) {
        // The orders that took a unit: every row, and every order an answer granted (a 202 or a 503 naming it) even
        // without its row, so that a lost order is reported as lost, not also as a refusal while its unit was left.
        Set<Long> taken = new HashSet<>();
        sale.orders().forEach(r -> taken.add(r.orderId()));
        ops.purchases().stream().filter(SaleOps::grants).map(Op::orderId).filter(id -> id.matches("\\d{1,19}"))
                .forEach(id -> taken.add(Long.parseLong(id)));
        // Both counts up to a moment, by binary search over sorted times: a large sale holds 10^5 answers.
        long[] mintedAt = taken.stream().mapToLong(id -> OrderIds.createdAt(id).toEpochMilli()).sorted().toArray();
        long[] undecidedFrom = ops.purchases().stream().filter(o -> !o.answered() || o.status() >= 500)
                .mapToLong(Op::startMillis).sorted().toArray();
        for (Op op : ops.purchases()) {
            if (op.status() != 410 || !"SOLD_OUT".equals(op.code())) {
                continue;
            }
            long until = op.endMillis() + CLOCK_SLACK_MS;
            long minted = atOrBefore(mintedAt, until);
            long undecided = atOrBefore(undecidedFrom, until);
            long left = sale.stockTotal() - minted - undecided;
            if (left > 0) {
                f.violation(SOLD_OUT_WITH_STOCK, sale.saleId(), op.userId(), null, "answered 410 SOLD_OUT while at "
                        + "least " + left + " of " + sale.stockTotal() + " units were left: by its end "
                        + minted + " order(s) had been minted and " + undecided + " purchase(s) were answered 503 "
                        + "or not at all", List.of(op));
            }
        }
    }

    /** How many of the sorted {@code times} are at or before {@code t}. */
    static int atOrBefore(long[] times, long t) {
        int i = Arrays.binarySearch(times, t);
        if (i < 0) {
            return -i - 1;
        }
        while (i + 1 < times.length && times[i + 1] == t) {
            i++;
        }
        return i + 1;
    }
}
