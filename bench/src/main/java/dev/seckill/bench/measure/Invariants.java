package dev.seckill.bench.measure;

import dev.seckill.bench.load.Attempt;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The invariants of docs/invariants.md for one sale: the state read from MySQL and Redis directly
 * ({@link SaleSnapshot}, never through the service) judged against the answers the client heard. Call it once the
 * writer has caught up and the expiry has settled what it owes Redis (after a fault, reconcile).
 *
 * <p>Each violation is one line, {@code "KIND: what"}, KIND one of {@link Kind}.
 */
public final class Invariants {

    /** What a violation broke; the names are the chaos checker's where they mean the same. */
    public enum Kind {
        /** More live orders than units, or Redis stock below zero. */
        OVERSELL,
        /** A user with two rows, or granted two different order ids. */
        SECOND_ORDER,
        /** A 202, or a 503 naming an order (the unit kept for a resend), whose order has no row of that user. */
        LOST_ORDER,
        /**
         * A row no answer explains: no 202 or 503 names it, and no 503 without an order id or unanswered attempt
         * of its buyer came before the first answer naming it (the buyer heard only refusals, or never clicked).
         * Judged only when every attempt was recorded.
         */
        ROW_WITHOUT_ANSWER,
        /** A unit given back more than once (Redis or DB stock too high), or given back while its order holds it. */
        UNIT_RETURNED_TWICE,
        /** An expired order whose unit Redis never got back. */
        UNIT_NOT_RETURNED,
        /** A payment for an EXPIRED order. */
        PAID_AND_EXPIRED,
        /** A PAID order without its payment, or a payment for an order still CONFIRMED. */
        PAYMENT_MISMATCH,
        /** A stock equation short (a unit missing), the stock key lost, or buyer marks that do not match the rows. */
        CONSERVATION,
        /** The run said how many units must have sold (min(stock, shoppers)) and the rows say otherwise. */
        SOLD_COUNT
    }

    private Invariants() {
    }

    /**
     * What was found ({@code violations} empty when all hold); {@code liveOrders}: the CONFIRMED and PAID ones;
     * {@code lost}: granted orders (202, or 503 naming one) without their row.
     */
    public record Report(long saleId, int stockTotal, long dbStock, long dbOrders, long distinctBuyers,
                         Long redisRemaining, long redisBuyers, long accepted, long lost, long liveOrders, long paid,
                         long expired, long redisReturned, List<String> violations) {

        public boolean ok() {
            return violations.isEmpty();
        }

        public String summary() {
            return "sale " + saleId + ": stock " + stockTotal + ", accepted(202) " + accepted + ", db orders "
                    + dbOrders + " (live " + liveOrders + ", paid " + paid + ", expired " + expired + "), db stock "
                    + dbStock + ", redis remaining " + redisRemaining + ", redis buyers " + redisBuyers + ", returned "
                    + redisReturned + ", oversold " + Math.max(0, liveOrders - stockTotal) + ", duplicates "
                    + (dbOrders - distinctBuyers) + ", lost " + lost
                    + (ok() ? ", all invariants hold" : ", VIOLATIONS " + violations);
        }
    }

    /**
     * Reads the sale and judges it ({@link #judge}).
     *
     * @param everyAttempt whether {@code attempts} holds every attempt made on the sale, unanswered ones included
     */
    public static Report check(Connection db, RedissonClient redis, long saleId, Collection<Attempt> attempts,
                               boolean everyAttempt, Long shoppers) throws SQLException {
        return judge(SaleSnapshot.read(db, redis, saleId), attempts, everyAttempt, shoppers);
    }

    /**
     * The invariants of {@code sale} against {@code attempts}, plus, with {@code shoppers} (null when the run does
     * not say how many units the sale must have sold): the sale sold exactly min(stock, shoppers), the distinct users
     * who tried (nothing stuck in a lost reservation). For a run whose every shopper clicked until it held an order
     * or heard SOLD_OUT, and whose orders wait out their window.
     *
     * @param everyAttempt whether {@code attempts} holds every attempt, unanswered ones included: only then can a row
     *                     be held against its buyer's answers ({@link Kind#ROW_WITHOUT_ANSWER}); a client that drops
     *                     what is in flight at its deadline cannot say a row was not written by a dropped attempt
     */
    public static Report judge(SaleSnapshot sale, Collection<Attempt> attempts, boolean everyAttempt,
                               Long shoppers) {
        int total = sale.stockTotal();
        Long remaining = sale.redisRemaining();
        Map<Long, List<SaleSnapshot.Row>> rowsByUser = sale.rows().stream()
                .collect(Collectors.groupingBy(SaleSnapshot.Row::userId));
        Map<Long, SaleSnapshot.Row> byOrder = new HashMap<>();
        sale.rows().forEach(r -> byOrder.put(r.orderId(), r));
        long rows = sale.rows().size();
        long expired = sale.rows().stream().filter(SaleSnapshot.Row::expired).count();
        long live = rows - expired;
        long paid = sale.rows().stream().filter(r -> r.state().equals("PAID")).count();
        Map<Long, List<Attempt>> byUser = attempts.stream().collect(Collectors.groupingBy(Attempt::userId));

        List<String> v = new ArrayList<>();
        expect(v, live <= total, Kind.OVERSELL, live + " live orders for stock " + total);
        expect(v, remaining == null || remaining >= 0, Kind.OVERSELL, "redis stock below zero: " + remaining);
        rowsByUser.forEach((user, mine) -> expect(v, mine.size() == 1, Kind.SECOND_ORDER, "user " + user + " has "
                + mine.size() + " orders: " + mine.stream().map(SaleSnapshot.Row::orderId).toList()));

        long accepted = attempts.stream().filter(Attempt::accepted).count();
        long lost = 0;
        for (Map.Entry<Long, List<Attempt>> e : byUser.entrySet()) {
            Set<String> granted = e.getValue().stream().filter(Invariants::grants).map(Attempt::orderId)
                    .collect(Collectors.toCollection(TreeSet::new));
            expect(v, granted.size() <= 1, Kind.SECOND_ORDER, "user " + e.getKey() + " was granted "
                    + granted.size() + " different orders: " + granted);
            for (String order : granted) {
                SaleSnapshot.Row row = order.matches("\\d{1,19}") ? byOrder.get(Long.parseLong(order)) : null;
                if (row == null || row.userId() != e.getKey()) {
                    lost++;
                    v.add(line(Kind.LOST_ORDER, "order " + order + " granted to user " + e.getKey() + " (" + e
                            .getValue().stream().filter(a -> order.equals(a.orderId()) && grants(a))
                            .map(a -> a.status() + "").distinct().collect(Collectors.joining(", "))
                            + ") has no row" + (row == null ? "" : " of this user (the row is user " + row.userId()
                            + "'s)")));
                }
            }
        }
        if (everyAttempt) {
            sale.rows().forEach(r -> explain(r, byUser.getOrDefault(r.userId(), List.of()), v));
        }

        // An oversold sale cannot satisfy the stock equations (both stocks stay >= 0): the oversell is the finding.
        if (remaining == null) {
            v.add(line(Kind.CONSERVATION, "redis has no stock for the sale"));
        } else if (live <= total) {
            expect(v, remaining + live <= total, Kind.UNIT_RETURNED_TWICE, "redis remaining " + remaining
                    + " + live db orders " + live + " > stock " + total + ": a unit came back more than once");
            expect(v, remaining + live >= total, Kind.CONSERVATION, "redis remaining " + remaining
                    + " + live db orders " + live + " < stock " + total + ": a unit is missing");
        }
        expect(v, sale.dbStock() <= total - live || live > total, Kind.UNIT_RETURNED_TWICE, "db stock "
                + sale.dbStock() + " > stock " + total + " - live db orders " + live
                + ": a unit came back more than once");
        expect(v, sale.dbStock() >= total - live || live > total, Kind.CONSERVATION, "db stock " + sale.dbStock()
                + " < stock " + total + " - live db orders " + live);
        for (long order : sale.returned().stream().sorted().toList()) {
            SaleSnapshot.Row row = byOrder.get(order);
            expect(v, row != null && row.expired(), Kind.UNIT_RETURNED_TWICE, "order " + order + " is in the "
                    + "returned set but " + (row == null ? "is no order of the sale" : "is " + row.state()
                    + ": its unit is on sale while its order holds it"));
        }
        sale.rows().stream().filter(r -> r.expired() && !sale.returned().contains(r.orderId())).forEach(r ->
                v.add(line(Kind.UNIT_NOT_RETURNED, "expired order " + r.orderId() + " is not in the returned set: "
                        + "its unit never came back to redis")));
        for (SaleSnapshot.Row r : sale.rows()) {
            expect(v, !(r.paid() && r.expired()), Kind.PAID_AND_EXPIRED, "order " + r.orderId()
                    + " has a payment and EXPIRED: an expired order must never be paid");
            expect(v, r.paid() == r.state().equals("PAID") || r.expired(), Kind.PAYMENT_MISMATCH, "order "
                    + r.orderId() + " is " + r.state() + (r.paid() ? " with" : " without") + " a payment");
        }
        // A user with two rows is a SECOND_ORDER already; one mark cannot match both.
        for (SaleSnapshot.Row r : sale.rows().stream().filter(r -> rowsByUser.get(r.userId()).size() == 1).toList()) {
            String mark = sale.buyers().get(Long.toString(r.userId()));
            expect(v, Long.toString(r.orderId()).equals(mark), Kind.CONSERVATION, "db order " + r.orderId()
                    + " of user " + r.userId() + " has " + (mark == null ? "no redis buyer mark"
                    : "the buyer mark of order " + mark));
        }
        sale.buyers().keySet().stream().filter(u -> !u.matches("\\d{1,19}")
                        || !rowsByUser.containsKey(Long.parseLong(u))).sorted()
                .forEach(u -> v.add(line(Kind.CONSERVATION, "redis buyer mark of user " + u + " (order "
                        + sale.buyers().get(u) + ") has no db order (lapsed buyers keep their mark)")));
        expect(v, shoppers == null || rows == Math.min(total, shoppers), Kind.SOLD_COUNT, "orders " + rows
                + " != min(stock " + total + ", shoppers " + shoppers + ")");
        return new Report(sale.saleId(), total, sale.dbStock(), rows, rowsByUser.size(), remaining,
                sale.buyers().size(), accepted, lost, live, paid, expired, sale.returned().size(), List.copyOf(v));
    }

    /** A 202, or a 503 naming the order that holds the buyer's unit: each says the order is the buyer's. */
    private static boolean grants(Attempt a) {
        return a.orderId() != null && (a.status() == 202 || a.status() == 503);
    }

    /**
     * A row no 202 and no 503 names was written by an attempt whose answer said nothing of it: a 503 without an
     * order id (the service died after Kafka's ack, or the edge timed out first) or no answer at all, before any
     * answer told the buyer of it (docs/invariants.md 6). Anything else is a row no answer explains.
     */
    private static void explain(SaleSnapshot.Row row, List<Attempt> mine, List<String> v) {
        String id = Long.toString(row.orderId());
        List<Attempt> naming = mine.stream().filter(a -> id.equals(a.orderId())).toList();
        if (naming.stream().anyMatch(Invariants::grants)) {
            return;
        }
        long firstNamed = naming.stream().mapToLong(Attempt::startNanos).min().orElse(Long.MAX_VALUE);
        boolean explained = mine.stream().anyMatch(a -> a.startNanos() < firstNamed
                && (a.status() == 0 || (a.status() == 503 && a.orderId() == null)));
        expect(v, explained, Kind.ROW_WITHOUT_ANSWER, "order " + id + " of user " + row.userId() + ": no 202 or "
                + "503 names it and no 503 without an order id or unanswered attempt came before"
                + (naming.isEmpty() ? "" : " the first answer naming it") + "; the buyer " + (mine.isEmpty()
                ? "never clicked" : "heard " + mine.stream().map(Attempt::kind).collect(Collectors.joining(", "))));
    }

    /** Adds the violation unless the invariant {@code holds}. */
    private static void expect(List<String> violations, boolean holds, Kind kind, String what) {
        if (!holds) {
            violations.add(line(kind, what));
        }
    }

    private static String line(Kind kind, String what) {
        return kind + ": " + what;
    }
}
