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
import java.util.List;
import java.util.Map;

/**
 * The invariants of the contract (docs/contract.md) for one sale, read from MySQL and Redis directly (never through the service):
 * no oversell, one per user, no lost order (every 202 has its row), conservation. Call it once the writer has
 * caught up (and, after a fault, after reconcile).
 */
public final class Invariants {

    private Invariants() {
    }

    /** What was found; {@code violations} is empty when every invariant holds. */
    public record Report(long saleId, int stockTotal, long dbStock, long dbOrders, long distinctBuyers,
                         Long redisRemaining, long redisBuyers, long accepted, long lost, List<String> violations) {

        public boolean ok() {
            return violations.isEmpty();
        }

        public String summary() {
            return "sale " + saleId + ": stock " + stockTotal + ", accepted(202) " + accepted + ", db orders " + dbOrders
                    + ", db stock " + dbStock + ", redis remaining " + redisRemaining + ", redis buyers " + redisBuyers
                    + ", oversold " + Math.max(0, dbOrders - stockTotal) + ", duplicates " + (dbOrders - distinctBuyers)
                    + ", lost " + lost + (ok() ? ", all invariants hold" : ", VIOLATIONS " + violations);
        }
    }

    /**
     * {@link #check(Connection, RedissonClient, long, Collection)}, plus: the sale sold exactly
     * {@code min(stock, shoppers)} units, where {@code shoppers} is how many distinct users tried to buy. A crowd
     * larger than the stock must leave nothing unsold (no unit stuck in a lost reservation); a smaller one must all
     * have bought. For a run whose every shopper kept clicking until it held an order or heard SOLD_OUT.
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
                r.redisBuyers(), r.accepted(), r.lost(), violations);
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
        long rows = 0;
        try (PreparedStatement ps = db.prepareStatement("SELECT user_id, order_id FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    orderByUser.put(rs.getLong(1), rs.getLong(2));
                    userByOrder.put(rs.getLong(2), rs.getLong(1));
                }
            }
        }
        Object rawRemaining = redis.getBucket(Keys.stock(saleId)).get();
        Long remaining = rawRemaining == null ? null : Long.parseLong(rawRemaining.toString());
        Map<Object, Object> buyers = redis.getMap(Keys.buyers(saleId)).readAllMap();

        if (rows > total) {
            violations.add("oversold: " + rows + " orders for stock " + total);
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
        } else if (remaining + rows != total) {
            violations.add("conservation: redis remaining " + remaining + " + db orders " + rows + " != stock " + total);
        }
        if (dbStock != total - rows) {
            violations.add("db stock " + dbStock + " != stock " + total + " - db orders " + rows);
        }
        for (var e : orderByUser.entrySet()) {
            Object mark = buyers.get(Long.toString(e.getKey()));
            if (mark == null || !mark.toString().equals(Long.toString(e.getValue()))) {
                violations.add("db order " + e.getValue() + " of user " + e.getKey() + " has no matching redis buyer mark");
                break;
            }
        }
        if (buyers.size() != rows) {
            violations.add("redis buyers " + buyers.size() + " != db orders " + rows);
        }
        return new Report(saleId, total, dbStock, rows, orderByUser.size(), remaining, buyers.size(), accepted, lost,
                violations);
    }
}
