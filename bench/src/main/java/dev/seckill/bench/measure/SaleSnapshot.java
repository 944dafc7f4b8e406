package dev.seckill.bench.measure;

import dev.seckill.redis.Keys;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One sale as MySQL and Redis hold it, read directly (never through the service): what {@link Invariants} judges.
 * Kept apart from the judging so that a test can hand the judge any state, broken ones first.
 *
 * @param rows           every {@code seckill_order} row of the sale
 * @param redisRemaining the stock key, null when it is missing
 * @param buyers         the buyers hash: user id to order id, as Redis spells them
 * @param returned       the order ids of the returned set
 */
public record SaleSnapshot(long saleId, int stockTotal, long dbStock, List<Row> rows, Long redisRemaining,
                           Map<String, String> buyers, Set<Long> returned) {

    /** One order row; {@code paid}: a {@code payment} row names it. */
    public record Row(long userId, long orderId, String state, boolean paid) {

        /** CONFIRMED and PAID orders hold a unit; an EXPIRED one gave it back. */
        public boolean live() {
            return !expired();
        }

        public boolean expired() {
            return state.equals("EXPIRED");
        }
    }

    /** Reads the sale; call it once the writer has caught up and the expiry has settled what it owes Redis. */
    public static SaleSnapshot read(Connection db, RedissonClient redis, long saleId) throws SQLException {
        int total;
        long dbStock;
        List<Row> rows = new ArrayList<>();
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
                    rows.add(new Row(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getBoolean(4)));
                }
            }
        }
        Object rawRemaining = redis.getBucket(Keys.stock(saleId)).get();
        Long remaining = rawRemaining == null ? null : Long.parseLong(rawRemaining.toString());
        Map<String, String> buyers = new HashMap<>();
        redis.getMap(Keys.buyers(saleId)).readAllMap().forEach((k, v) -> buyers.put(k.toString(), v.toString()));
        Set<Long> returned = new HashSet<>();
        redis.getSet(Keys.returned(saleId)).readAll().forEach(o -> returned.add(Long.parseLong(o.toString())));
        return new SaleSnapshot(saleId, total, dbStock, List.copyOf(rows), remaining, Map.copyOf(buyers),
                Set.copyOf(returned));
    }
}
