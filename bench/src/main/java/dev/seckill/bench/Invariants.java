package dev.seckill.bench;

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
 * The invariants of docs/invariants.md for one sale, read from MySQL and Redis directly (never through the service):
 * no oversell, one per user, no lost order (every 202 has its row), conservation over the live orders (CONFIRMED and
 * PAID hold a unit, an EXPIRED one gave it back), no unit returned twice, and an expired order never paid. Call it
 * once the writer has caught up and the expiry has settled what it owes Redis (and, after a fault, after reconcile).
 */
public final class Invariants {

    private Invariants() {
    }

    /**
     * What was found; {@code violations} is empty when every invariant holds.
     *
     * @param dbOrders every order row, whatever its state; {@code liveOrders} the CONFIRMED and PAID ones
     */
    public record Report(long saleId, int stockTotal, long dbStock, long dbOrders, long distinctBuyers,
                         Long redisRemaining, long redisBuyers, long accepted, long lost, long liveOrders, long paid,
                         long expired, long redisReturned, List<String> violations) {

        public boolean ok() {
            return violations.isEmpty();
        }

        public String summary() {
            return "sale " + saleId + ": stock " + stockTotal + ", accepted(202) " + accepted + ", db orders " + dbOrders
                    + " (live " + liveOrders + ", paid " + paid + ", expired " + expired + "), db stock " + dbStock
                    + ", redis remaining " + redisRemaining + ", redis buyers " + redisBuyers + ", returned "
                    + redisReturned + ", oversold " + Math.max(0, liveOrders - stockTotal) + ", duplicates "
                    + (dbOrders - distinctBuyers) + ", lost " + lost
                    + (ok() ? ", all invariants hold" : ", VIOLATIONS " + violations);
        }
    }

    /**
     * {@link #check(Connection, RedissonClient, long, Collection)}, plus: the sale sold exactly
     * {@code min(stock, shoppers)} units, where {@code shoppers} is how many distinct users tried to buy. A crowd
     * larger than the stock must leave nothing unsold (no unit stuck in a lost reservation); a smaller one must all
     * have bought. For a run whose every shopper kept clicking until it held an order or heard SOLD_OUT, and whose
     * orders wait out their window (no expiry during the run).
     */
    public static Report check(Connection db, RedissonClient redis, long saleId, Collection<Attempt> attempts,
                               long shoppers) throws SQLException {
        Report r = check(db, redis, saleId, attempts);
        long expected = Math.min(r.stockTotal(), shoppers);
        if (r.dbOrders() == expected) {
            return r;
        }
        List<String> violations = new ArrayList<>(r.violations());
        violations.add("orders " + r.dbOrders() + " != min(stock " + r.stockTotal() + ", shoppers " + shoppers + ")");
        return new Report(r.saleId(), r.stockTotal(), r.dbStock(), r.dbOrders(), r.distinctBuyers(), r.redisRemaining(),
                r.redisBuyers(), r.accepted(), r.lost(), r.liveOrders(), r.paid(), r.expired(), r.redisReturned(),
                violations);
    }

    public static Report check(Connection db, RedissonClient redis, long saleId, Collection<Attempt> attempts)
            throws SQLException {
        List<String> violations = new ArrayList<>();
        int total;
        long dbStock;
        try (PreparedStatement ps = db.prepareStatement("SELECT stock_total, stock FROM sale WHERE id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no sale " + saleId);
                }
                total = rs.getInt(1);
                dbStock = rs.getLong(2);
            }
        }
        Map<Long, Long> orderByUser = new HashMap<>();
        Map<Long, Long> userByOrder = new HashMap<>();
        Set<Long> expired = new HashSet<>();
        long rows = 0;
        long paid = 0;
        try (PreparedStatement ps = db.prepareStatement(
                "SELECT user_id, order_id, state FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    orderByUser.put(rs.getLong(1), rs.getLong(2));
                    userByOrder.put(rs.getLong(2), rs.getLong(1));
                    switch (rs.getString(3)) {
                        case "EXPIRED" -> expired.add(rs.getLong(2));
                        case "PAID" -> paid++;
                        default -> { }
                    }
                }
            }
        }
        long live = rows - expired.size();
        long payments = 0;
        long wrongPayments = 0;
        try (PreparedStatement ps = db.prepareStatement("SELECT o.state FROM payment p JOIN seckill_order o "
                + "ON o.order_id = p.order_id WHERE o.sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    payments++;
                    wrongPayments += "PAID".equals(rs.getString(1)) ? 0 : 1;
                }
            }
        }
        Object rawRemaining = redis.getBucket(Keys.stock(saleId)).get();
        Long remaining = rawRemaining == null ? null : Long.parseLong(rawRemaining.toString());
        Map<Object, Object> buyers = redis.getMap(Keys.buyers(saleId)).readAllMap();
        Set<Long> returned = new HashSet<>();
        redis.getSet(Keys.returned(saleId)).readAll().forEach(o -> returned.add(Long.parseLong(o.toString())));

        if (live > total) {
            violations.add("oversold: " + live + " live orders for stock " + total);
        }
        if (remaining != null && remaining < 0) {
            violations.add("redis stock below zero: " + remaining);
        }
        if (orderByUser.size() != rows) {
            violations.add("duplicates: " + (rows - orderByUser.size()) + " users with more than one order");
        }
        long accepted = 0;
        long lost = 0;
        Map<Long, String> acceptedByUser = new HashMap<>();
        for (Attempt a : attempts) {
            if (!a.accepted()) {
                continue;
            }
            accepted++;
            String prior = acceptedByUser.put(a.userId(), a.orderId());
            if (prior != null && !prior.equals(a.orderId())) {
                violations.add("user " + a.userId() + " was accepted twice with different orders");
            }
            Long owner = userByOrder.get(Long.parseLong(a.orderId()));
            if (owner == null || owner != a.userId()) {
                lost++;
            }
        }
        if (lost > 0) {
            violations.add("lost: " + lost + " accepted (202) orders have no DB row");
        }
        if (remaining == null) {
            violations.add("redis has no stock for the sale");
        } else if (remaining + live != total) {
            violations.add("conservation: redis remaining " + remaining + " + live db orders " + live + " != stock "
                    + total + (remaining + live > total ? " (a unit came back more than once)" : ""));
        }
        if (dbStock != total - live) {
            violations.add("db stock " + dbStock + " != stock " + total + " - live db orders " + live);
        }
        if (!returned.equals(expired)) {
            violations.add("redis returned " + returned.size() + " orders' units, the db expired " + expired.size()
                    + " orders: each expired order's unit must come back exactly once");
        }
        if (wrongPayments > 0 || payments != paid) {
            violations.add("payments " + payments + " for " + paid + " paid orders (" + wrongPayments
                    + " for orders that are not PAID: an expired order must never be paid)");
        }
        for (var e : orderByUser.entrySet()) {
            Object mark = buyers.get(Long.toString(e.getKey()));
            if (mark == null || !mark.toString().equals(Long.toString(e.getValue()))) {
                violations.add("db order " + e.getValue() + " of user " + e.getKey() + " has no matching redis buyer mark");
                break;
            }
        }
        if (buyers.size() != rows) {
            violations.add("redis buyers " + buyers.size() + " != db orders " + rows + " (lapsed buyers keep their mark)");
        }
        return new Report(saleId, total, dbStock, rows, orderByUser.size(), remaining, buyers.size(), accepted, lost,
                live, paid, expired.size(), returned.size(), violations);
    }
}
