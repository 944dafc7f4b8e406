package dev.seckill.check;


import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.seckill.check.Violation.Kind.CONSERVATION;
import static dev.seckill.check.Violation.Kind.OVERSELL;
import static dev.seckill.check.Violation.Kind.PAID_AND_EXPIRED;
import static dev.seckill.check.Violation.Kind.PAYMENT_MISMATCH;
import static dev.seckill.check.Violation.Kind.UNIT_NOT_RETURNED;
import static dev.seckill.check.Violation.Kind.UNIT_RETURNED_TWICE;

/**
 * The promises a sale's final state keeps by itself (docs/invariants.md 1, 4 and 5): no oversell, paid or expired
 * once, each expired unit back once, the stock equations and the buyer marks against the rows.
 */
final class StateChecks {

    private StateChecks() {
    }

    static void check(FinalSale sale, SaleOps ops, Findings f) {
        long id = sale.saleId();
        long total = sale.stockTotal();
        long live = sale.live();
        List<FinalOrder> liveRows = sale.orders().stream().filter(FinalOrder::live).toList();
        RedisSale redis = sale.redis();
        // An oversold sale cannot satisfy the stock equations (remaining >= 0 and stock >= 0 by CHECK): the oversell
        // is their cause, reported once as such rather than as three broken equations.
        boolean oversold = live > total;
        if (oversold) {
            f.violation(OVERSELL, id, null, null, live + " live orders (CONFIRMED and PAID) for a stock of " + total,
                    ops.naming(liveRows));
        }
        if (redis.present() && redis.remaining() < 0) {
            f.violation(OVERSELL, id, null, null, "Redis stock is " + redis.remaining() + " on " + redis.node(),
                    List.of());
        }
        payments(sale, ops, f);
        if (!oversold) {
            long expected = total - live;
            if (sale.stock() > expected) {
                f.violation(UNIT_RETURNED_TWICE, id, null, null, "DB stock " + sale.stock() + " > stock_total " + total
                        + " - live orders " + live + " = " + expected + ": " + (sale.stock() - expected)
                        + " unit(s) given back more than once", List.of());
            } else if (sale.stock() < expected) {
                f.violation(CONSERVATION, id, null, null, "DB stock " + sale.stock() + " < stock_total " + total
                        + " - live orders " + live + " = " + expected + ": " + (expected - sale.stock())
                        + " unit(s) neither sold nor on sale", List.of());
            }
        }
        if (!redis.present()) {
            missingKeys(sale, ops, f);
            return;
        }
        // As in the database: a unit too many on sale was given back twice; a unit too few is held by no order.
        long off = redis.remaining() + live - total;
        if (!oversold && off > 0) {
            f.violation(UNIT_RETURNED_TWICE, id, null, null, "Redis remaining " + redis.remaining() + " + live orders "
                    + live + " > stock_total " + total + ": " + off + " unit(s) given back more than once", List.of());
        } else if (!oversold && off < 0) {
            f.violation(CONSERVATION, id, null, null, "Redis remaining " + redis.remaining() + " + live orders " + live
                    + " < stock_total " + total + ": " + -off + " unit(s) held by no order", List.of());
        }
        returns(sale, ops, f);
        marks(sale, ops, f);
        if (!redis.strays().isEmpty()) {
            f.violation(CONSERVATION, id, null, null, "masters other than " + redis.node() + " hold keys of the sale's "
                    + "slot: " + redis.strays(), List.of());
        }
    }

    /** Paid or expired, once; a payment exactly for each PAID order. */
    private static void payments(FinalSale sale, SaleOps ops, Findings f) {
        for (FinalOrder r : sale.orders()) {
            if (r.paid() && r.state() == FinalOrder.State.EXPIRED) {
                f.violation(PAID_AND_EXPIRED, sale.saleId(), r.userId(), r.id(), "the order has a payment and is "
                        + "EXPIRED (its unit went back on sale)", ops.naming(r.id()), r.requestId());
            } else if (r.paid() != (r.state() == FinalOrder.State.PAID)) {
                f.violation(PAYMENT_MISMATCH, sale.saleId(), r.userId(), r.id(), r.paid()
                        ? "a payment for an order still " + r.state() : "PAID without a payment row",
                        ops.naming(r.id()), r.requestId());
            }
        }
    }

    /** The returned set holds exactly the EXPIRED orders. */
    private static void returns(FinalSale sale, SaleOps ops, Findings f) {
        Map<Long, FinalOrder> byId = sale.orders().stream().collect(Collectors.toMap(FinalOrder::orderId,
                Function.identity()));
        for (long returned : sale.redis().returned()) {
            FinalOrder r = byId.get(returned);
            if (r == null) {
                f.violation(UNIT_RETURNED_TWICE, sale.saleId(), null, Long.toString(returned), "in the returned set "
                        + "but no order of the sale: a unit given back for nothing", ops.naming(Long.toString(returned)));
            } else if (r.live()) {
                f.violation(UNIT_RETURNED_TWICE, sale.saleId(), r.userId(), r.id(), "in the returned set but "
                        + r.state() + ": its unit is back on sale while the order holds it", ops.naming(r.id()),
                        r.requestId());
            }
        }
        for (FinalOrder r : sale.orders()) {
            if (!r.live() && !sale.redis().returned().contains(r.orderId())) {
                f.violation(UNIT_NOT_RETURNED, sale.saleId(), r.userId(), r.id(), "EXPIRED but not in the returned set"
                        + (sale.unitReturns().contains(r.orderId()) ? " (its unit_return row is still owed)" : ""),
                        ops.naming(r.id()), r.requestId());
            }
        }
    }

    /**
     * Every buyer mark has its row with the same order id, every row its mark (a lapsed buyer's too), and every unsent
     * entry left names its buyer's marked order.
     */
    private static void marks(FinalSale sale, SaleOps ops, Findings f) {
        Map<Long, List<FinalOrder>> rowsByUser = sale.orders().stream().collect(Collectors.groupingBy(FinalOrder::userId));
        Map<Long, Long> buyers = sale.redis().buyers();
        buyers.forEach((user, order) -> {
            List<FinalOrder> rows = rowsByUser.getOrDefault(user, List.of());
            if (rows.stream().noneMatch(r -> r.orderId() == order)) {
                List<Op> involved = ops.of(user);
                f.violation(CONSERVATION, sale.saleId(), user, Long.toString(order), rows.isEmpty()
                        ? "a buyer mark without its row (a reservation never written, or never released)"
                        : "the buyer mark names this order, the user's row is " + rows.getFirst().id(), involved);
            }
        });
        // A send still owed holds the buyer's unit for the order its mark names, never for another.
        sale.redis().unsent().forEach((user, entry) -> {
            String order = entry.substring(0, Math.max(0, entry.indexOf(':')));
            if (!order.equals(String.valueOf(buyers.get(user)))) {
                f.violation(CONSERVATION, sale.saleId(), user, order, "an unsent entry (" + entry + ") for an order "
                        + "the buyer mark does not name (" + buyers.get(user) + ")", ops.of(user));
            }
        });
        for (FinalOrder r : sale.orders()) {
            // A user's second row cannot have a mark of its own (one per user): that is the SECOND_ORDER reported
            // by the answers' check, not a lost mark.
            if (!buyers.containsKey(r.userId())) {
                f.violation(CONSERVATION, sale.saleId(), r.userId(), r.id(), "a row without its buyer mark",
                        ops.naming(r.id()), r.requestId());
            }
        }
    }

    /** No stock key: archived (only the database equations hold, checked above) or lost. */
    private static void missingKeys(FinalSale sale, SaleOps ops, Findings f) {
        if (!sale.redis().archived()) {
            f.violation(CONSERVATION, sale.saleId(), null, null, "Redis has no stock key and no archived mark on "
                    + sale.redis().node() + ": the sale's keys are lost", List.of());
            return;
        }
        for (FinalOrder r : sale.orders()) {
            if (sale.unitReturns().contains(r.orderId())) {
                f.violation(UNIT_NOT_RETURNED, sale.saleId(), r.userId(), r.id(), "the sale is archived and its "
                        + "unit_return row is still owed", ops.naming(r.id()), r.requestId());
            }
        }
    }
}
