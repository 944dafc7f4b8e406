package dev.seckill.admin;

import dev.seckill.order.OrderRow;
import dev.seckill.order.OrderState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The conservation invariant of docs/invariants.md judged as sets, not counts: equal counts can hide a mark
 * without its row next to a row without its mark. A pure function of what the stats read, so its tests hand it
 * broken states without a stack.
 */
final class Conservation {

    private Conservation() {
    }

    /** Every disagreement of the sale, none when it is consistent. */
    static List<Disagreement> judge(SaleStats s) {
        List<Disagreement> out = new ArrayList<>();
        long live = s.orders().live();
        if (s.consumerLag() > 0) {
            out.add(Disagreement.ofSale(Disagreement.Kind.WRITER_BEHIND,
                    s.consumerLag() + " events not written yet"));
        }
        if (s.dbStock() != s.stockTotal() - live) {
            out.add(Disagreement.ofSale(Disagreement.Kind.DB_STOCK, "db stock " + s.dbStock() + ", expected "
                    + (s.stockTotal() - live) + " (total " + s.stockTotal() + " - " + live + " live rows)"));
        }
        if (s.archived()) {
            // Settled and archived: what Redis still holds is on its way out; the database alone is the record.
            return out;
        }
        if (s.unitsOwed() > 0) {
            out.add(Disagreement.ofSale(Disagreement.Kind.UNITS_OWED, s.unitsOwed() + " units owed to Redis"));
        }
        if (s.redisRemaining() == null) {
            out.add(Disagreement.ofSale(Disagreement.Kind.REDIS_STOCK_MISSING, "no stock key in Redis"));
        } else if (s.stockTotal() != s.redisRemaining() + live) {
            out.add(Disagreement.ofSale(Disagreement.Kind.REDIS_STOCK, "total " + s.stockTotal() + " != remaining "
                    + s.redisRemaining() + " + " + live + " live rows"));
        }
        marksAndRows(s.buyers(), s.rows(), out);
        returnedAndExpired(s.returned(), s.rows(), out);
        return out;
    }

    /** Each mark has its user's row with the same order id, and each row its mark (an expired one's too). */
    private static void marksAndRows(Map<Long, Long> buyers, List<OrderRow> rows, List<Disagreement> out) {
        Map<Long, OrderRow> byUser = new HashMap<>();
        for (OrderRow r : rows) {
            byUser.put(r.userId(), r);
            Long mark = buyers.get(r.userId());
            if (mark == null) {
                out.add(new Disagreement(Disagreement.Kind.ROW_WITHOUT_MARK, r.userId(), r.orderId(),
                        r.state() + " row without a buyer mark"));
            } else if (mark != r.orderId()) {
                out.add(new Disagreement(Disagreement.Kind.MARK_NAMES_OTHER_ORDER, r.userId(), r.orderId(),
                        "the buyer mark names order " + mark));
            }
        }
        buyers.forEach((user, order) -> {
            if (!byUser.containsKey(user)) {
                out.add(new Disagreement(Disagreement.Kind.MARK_WITHOUT_ROW, user, order, "buyer mark without a row"));
            }
        });
    }

    /** The returned set is exactly the EXPIRED rows' order ids: each expired unit came back once, no other. */
    private static void returnedAndExpired(Set<Long> returned, List<OrderRow> rows, List<Disagreement> out) {
        Map<Long, OrderRow> expired = new HashMap<>();
        for (OrderRow r : rows) {
            if (r.state() == OrderState.EXPIRED) {
                expired.put(r.orderId(), r);
                if (!returned.contains(r.orderId())) {
                    out.add(new Disagreement(Disagreement.Kind.EXPIRED_NOT_RETURNED, r.userId(), r.orderId(),
                            "expired order not in the returned set"));
                }
            }
        }
        for (long order : returned) {
            if (!expired.containsKey(order)) {
                out.add(new Disagreement(Disagreement.Kind.RETURNED_NOT_EXPIRED, null, order,
                        "returned order id is no EXPIRED row"));
            }
        }
    }
}
