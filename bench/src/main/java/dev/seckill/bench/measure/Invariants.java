package dev.seckill.bench.measure;

import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.report.Report;
import dev.seckill.redis.Keys;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of docs/invariants.md for one sale, read from MySQL and Redis directly (never through the service).
 * Call it once the writer has caught up and the expiry has settled what it owes Redis (after a fault, reconcile).
 */
public final class Invariants {

    private Invariants() {
    }

    /** What was found ({@code violations} empty when all hold); {@code liveOrders}: the CONFIRMED and PAID ones. */
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

    public static Report check(Connection db, RedissonClient redis, long saleId, Collection<Attempt> attempts)
            throws SQLException {
        return check(db, redis, saleId, attempts, null);
    }

    /**
     * The invariants, plus, with {@code shoppers} (null when the run does not say how many units the sale must have
     * sold): the sale sold exactly min(stock, shoppers), the distinct users who tried (nothing stuck in a lost
     * reservation). For a run whose every shopper clicked until it held an order or heard SOLD_OUT, and whose orders
     * wait out their window.
     */
    public static Report check(Connection db, RedissonClient redis, long saleId, Collection<Attempt> attempts,
                               Long shoppers) throws SQLException {
        int total;
        long dbStock;
        Map<Long, Long> orderByUser = new HashMap<>();
        Map<Long, Long> userByOrder = new HashMap<>();
        Set<Long> expired = new HashSet<>();
        long paid = 0;
        long payments = 0;
        long wrongPayments = 0;
        // One row per order (order_id is the key of both tables), with whether it has a payment.
        try (PreparedStatement sale = db.prepareStatement("SELECT stock_total, stock FROM sale WHERE id = ?");
             PreparedStatement orders = db.prepareStatement("SELECT o.user_id, o.order_id, o.state, "
                     + "p.order_id IS NOT NULL FROM seckill_order o LEFT JOIN payment p ON p.order_id = o.order_id "
                     + "WHERE o.sale_id = ?")) {
            sale.setLong(1, saleId);
            orders.setLong(1, saleId);
            try (ResultSet rs = sale.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no sale " + saleId);
                }
                total = rs.getInt(1);
                dbStock = rs.getLong(2);
            }
            try (ResultSet rs = orders.executeQuery()) {
                while (rs.next()) {
                    orderByUser.put(rs.getLong(1), rs.getLong(2));
                    userByOrder.put(rs.getLong(2), rs.getLong(1));
                    String state = rs.getString(3);
                    if (state.equals("EXPIRED")) {
                        expired.add(rs.getLong(2));
                    }
                    paid += state.equals("PAID") ? 1 : 0;
                    payments += rs.getBoolean(4) ? 1 : 0;
                    wrongPayments += rs.getBoolean(4) && !state.equals("PAID") ? 1 : 0;
                }
            }
        }
        long rows = userByOrder.size();
        long live = rows - expired.size();
        Object rawRemaining = redis.getBucket(Keys.stock(saleId)).get();
        Long remaining = rawRemaining == null ? null : Long.parseLong(rawRemaining.toString());
        Map<Object, Object> buyers = redis.getMap(Keys.buyers(saleId)).readAllMap();
        Set<Long> returned = new HashSet<>();
        redis.getSet(Keys.returned(saleId)).readAll().forEach(o -> returned.add(Long.parseLong(o.toString())));

        List<String> v = new ArrayList<>();
        expect(v, live <= total, "oversold: " + live + " live orders for stock " + total);
        expect(v, remaining == null || remaining >= 0, "redis stock below zero: " + remaining);
        expect(v, orderByUser.size() == rows, "duplicates: " + (rows - orderByUser.size())
                + " users with more than one order");
        long accepted = 0;
        long lost = 0;
        Map<Long, String> acceptedByUser = new HashMap<>();
        for (Attempt a : attempts.stream().filter(Attempt::accepted).toList()) {
            accepted++;
            String prior = acceptedByUser.put(a.userId(), a.orderId());
            expect(v, prior == null || prior.equals(a.orderId()), "user " + a.userId()
                    + " was accepted twice with different orders");
            Long owner = userByOrder.get(Long.parseLong(a.orderId()));
            lost += owner == null || owner != a.userId() ? 1 : 0;
        }
        expect(v, lost == 0, "lost: " + lost + " accepted (202) orders have no DB row");
        if (remaining == null) {
            v.add("redis has no stock for the sale");
        } else {
            expect(v, remaining + live == total, "conservation: redis remaining " + remaining + " + live db orders "
                    + live + " != stock " + total + (remaining + live > total ? " (a unit came back more than once)"
                    : ""));
        }
        expect(v, dbStock == total - live, "db stock " + dbStock + " != stock " + total + " - live db orders " + live);
        expect(v, returned.equals(expired), "redis returned " + returned.size() + " orders' units, the db expired "
                + expired.size() + " orders: each expired order's unit must come back exactly once");
        expect(v, wrongPayments == 0 && payments == paid, "payments " + payments + " for " + paid + " paid orders ("
                + wrongPayments + " for orders that are not PAID: an expired order must never be paid)");
        orderByUser.entrySet().stream()
                .filter(e -> !String.valueOf(buyers.get(Long.toString(e.getKey()))).equals(Long.toString(e.getValue())))
                .findFirst().ifPresent(e -> v.add("db order " + e.getValue() + " of user " + e.getKey()
                        + " has no matching redis buyer mark"));
        expect(v, buyers.size() == rows, "redis buyers " + buyers.size() + " != db orders " + rows
                + " (lapsed buyers keep their mark)");
        expect(v, shoppers == null || rows == Math.min(total, shoppers), "orders " + rows + " != min(stock " + total
                + ", shoppers " + shoppers + ")");
        return new Report(saleId, total, dbStock, rows, orderByUser.size(), remaining, buyers.size(), accepted, lost,
                live, paid, expired.size(), returned.size(), v);
    }

    /** Adds {@code violation} unless the invariant {@code holds}. */
    private static void expect(List<String> violations, boolean holds, String violation) {
        if (!holds) {
            violations.add(violation);
        }
    }
}
