package dev.seckill.writer.it;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sales and orders for integration tests, made directly in the stack's database: each test gets its own sale
 * rows (fresh auto-increment ids, unique names) and order ids derived from them, so tests never interfere.
 */
public final class Sales {

    // Far above the ids the service hands out, and unique per sale: saleId * 1e6 + n.
    private static final long ORDER_ID_BASE = 4_000_000_000_000_000_000L;

    private Sales() {
    }

    /** A new active sale with this much stock; returns its id. */
    public static long create(int stock) {
        try (Connection c = Stack.get().db();
             PreparedStatement ps = c.prepareStatement("INSERT INTO sale (name, price_cents, stock_total, stock,"
                     + " starts_at, ends_at) VALUES (?, 1990, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
            ps.setString(1, "writer-it-" + UUID.randomUUID());
            ps.setInt(2, stock);
            ps.setInt(3, stock);
            ps.setObject(4, now.minusHours(1));
            ps.setObject(5, now.plusHours(1));
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to create a sale: " + e.getMessage(), e);
        }
    }

    /** Orders 1..n of the sale, one per user (user i buys order i). */
    public static List<OrderEvent> orders(long saleId, int n) {
        List<OrderEvent> events = new ArrayList<>(n);
        long createdAt = System.currentTimeMillis();
        for (int i = 1; i <= n; i++) {
            events.add(OrderEvent.of(orderId(saleId, i), saleId, i, 1990, createdAt + i));
        }
        return events;
    }

    public static long orderId(long saleId, int n) {
        return ORDER_ID_BASE + saleId * 1_000_000L + n;
    }

    public static int rows(long saleId) {
        return queryInt("SELECT COUNT(*) FROM seckill_order WHERE sale_id = ?", saleId);
    }

    public static int stock(long saleId) {
        return queryInt("SELECT stock FROM sale WHERE id = ?", saleId);
    }

    /**
     * The invariants of the contract (docs/contract.md) for one sale: exactly the expected orders are rows (no loss, no duplicate),
     * one per user, and the DB stock went down by exactly the number of rows.
     */
    public static void assertWrittenOnce(long saleId, List<OrderEvent> expected) {
        Set<Long> ids = new HashSet<>();
        expected.forEach(e -> ids.add(e.orderIdValue()));
        assertEquals(ids, orderIds(saleId), "order rows of sale " + saleId);
        assertEquals(ids.size(), queryInt("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE sale_id = ?", saleId),
                "one order per user in sale " + saleId);
        assertEquals(ids.size(), queryInt("SELECT stock_total - stock FROM sale WHERE id = ?", saleId),
                "stock_total - stock = rows for sale " + saleId);
    }

    private static Set<Long> orderIds(long saleId) {
        Set<Long> ids = new HashSet<>();
        try (Connection c = Stack.get().db();
             PreparedStatement ps = c.prepareStatement("SELECT order_id FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw new AssertionError("failed to read orders: " + e.getMessage(), e);
        }
    }

    private static int queryInt(String sql, long id) {
        try (Connection c = Stack.get().db(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to query " + sql + ": " + e.getMessage(), e);
        }
    }
}
