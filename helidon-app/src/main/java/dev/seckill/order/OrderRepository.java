package dev.seckill.order;

import dev.seckill.failure.DependencyUnavailable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.seckill.db.SqlTimes.instant;

/**
 * Reads the orders the batch writer has written. payBy is derived here, where it is read: the row's written_at (the
 * database's clock when the writer inserted it) plus its sale's pay_window_seconds, the same sum the pay and the
 * expiry compare with the database's NOW(3) (docs/database.md).
 */
public final class OrderRepository implements OrderSource {

    private static final String FIND = "SELECT o.order_id, o.sale_id, o.user_id, o.price_cents, o.state, "
            + "TIMESTAMPADD(SECOND, s.pay_window_seconds, o.written_at), o.paid_at "
            + "FROM seckill_order o JOIN sale s ON s.id = o.sale_id WHERE o.order_id = ?";

    private final DataSource db;

    public OrderRepository(DataSource db) {
        this.db = db;
    }

    /** One primary-key read (and its sale's, by primary key). */
    @Override
    public Optional<Order> find(long orderId) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(FIND)) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Order(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        OrderState.valueOf(rs.getString(5)), instant(rs.getTimestamp(6)), instant(rs.getTimestamp(7))));
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the order: " + e.getMessage(), e);
        }
    }

    /** A buyer's order id in a sale, whatever its state (the unique key sale_id, user_id). */
    public Optional<Long> orderIdOf(long saleId, long userId) {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT order_id FROM seckill_order WHERE sale_id = ? AND user_id = ?")) {
            ps.setLong(1, saleId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the buyer's order: " + e.getMessage(), e);
        }
    }

    /** Every written order of a sale, whatever its state, userId -> orderId (bounded by the sale's buyers). */
    public Map<Long, Long> ordersOfSale(long saleId) {
        Map<Long, Long> out = new HashMap<>();
        query("SELECT user_id, order_id FROM seckill_order WHERE sale_id = ?", saleId,
                rs -> out.put(rs.getLong(1), rs.getLong(2)), "the sale's orders");
        return out;
    }

    /** The order ids of a sale that expired (their unit went back to the DB stock, and is owed to Redis). */
    public Set<Long> expiredOfSale(long saleId) {
        Set<Long> out = new HashSet<>();
        query("SELECT order_id FROM seckill_order WHERE sale_id = ? AND state = 'EXPIRED'", saleId,
                rs -> out.add(rs.getLong(1)), "the sale's expired orders");
        return out;
    }

    /**
     * Every written order of a sale with its state, in one query (one index range: the unique key sale_id, user_id):
     * the stats compare them with the buyer marks one by one. Bounded by the sale's buyers.
     */
    public List<OrderRow> rowsOfSale(long saleId) {
        List<OrderRow> out = new ArrayList<>();
        query("SELECT user_id, order_id, state FROM seckill_order WHERE sale_id = ?", saleId,
                rs -> out.add(new OrderRow(rs.getLong(1), rs.getLong(2), OrderState.valueOf(rs.getString(3)))),
                "the sale's orders");
        return out;
    }

    /** A sale's written orders by state (one index range: sale_id, state). */
    public OrderCounts countsForSale(long saleId) {
        Map<String, Long> by = new HashMap<>();
        query("SELECT state, COUNT(*) FROM seckill_order WHERE sale_id = ? GROUP BY state", saleId,
                rs -> by.put(rs.getString(1), rs.getLong(2)), "the sale's order counts");
        return new OrderCounts(by.getOrDefault("CONFIRMED", 0L), by.getOrDefault("PAID", 0L),
                by.getOrDefault("EXPIRED", 0L));
    }

    /** Units expired orders of the sale still owe to Redis (unit_return rows the expiry has not settled yet). */
    public long unitsOwed(long saleId) {
        long[] n = new long[1];
        query("SELECT COUNT(*) FROM unit_return WHERE sale_id = ?", saleId, rs -> n[0] = rs.getLong(1),
                "the units owed to Redis");
        return n[0];
    }

    /** One row of a result, read. */
    @FunctionalInterface
    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    private void query(String sql, long saleId, Row row, String what) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    row.read(rs);
                }
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read " + what + ": " + e.getMessage(), e);
        }
    }
}
