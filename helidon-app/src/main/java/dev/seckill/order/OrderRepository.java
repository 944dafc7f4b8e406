package dev.seckill.order;

import dev.seckill.failure.DependencyUnavailable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Reads orders the batch writer has written (the service never writes them). */
public final class OrderRepository implements OrderSource {

    private final DataSource db;

    public OrderRepository(DataSource db) {
        this.db = db;
    }

    @Override
    public Optional<WrittenOrder> find(long orderId) {
        String sql = "SELECT order_id, sale_id, user_id, price_cents FROM seckill_order WHERE order_id = ?";
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new WrittenOrder(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the order: " + e.getMessage(), e);
        }
    }

    /** Every written order of a sale, userId -> orderId (bounded by the sale's stock). */
    public Map<Long, Long> ordersOfSale(long saleId) {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT user_id, order_id FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                Map<Long, Long> out = new HashMap<>();
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getLong(2));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the sale's orders: " + e.getMessage(), e);
        }
    }

    /** Orders written for a sale. */
    public long countForSale(long saleId) {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to count orders: " + e.getMessage(), e);
        }
    }
}
