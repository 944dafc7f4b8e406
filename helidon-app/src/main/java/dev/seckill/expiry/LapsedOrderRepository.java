package dev.seckill.expiry;

import dev.seckill.event.OrderEventOutbox;
import dev.seckill.event.OrderStateEvent;
import dev.seckill.failure.DependencyUnavailable;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The expiry's SQL. The decisive statement is the conditional UPDATE {@code ... WHERE state = 'CONFIRMED'}: a pay
 * (PaymentRepository) updates the same row under {@code NOW(3) <= payBy}, this one only rows past payBy, and the
 * row lock orders the two, so each order is PAID or EXPIRED, never both, and expires once. The order events of both
 * of the expiry's changes (EXPIRED, and UNIT_RETURNED when its unit_return row is settled) are written to the outbox
 * in the transaction that makes the change.
 */
public final class LapsedOrderRepository implements LapsedOrders {

    private static final String SALES = "SELECT s.id, s.pay_window_seconds FROM sale s WHERE s.id IN "
            + "(SELECT DISTINCT o.sale_id FROM seckill_order o WHERE o.state = 'CONFIRMED')";
    // written_at < NOW(3) - window is NOW(3) > payBy, the exact complement of the pay's condition. SKIP LOCKED: rows
    // a pay or another instance holds are left to them (and to the next pass), never waited for.
    private static final String LAPSED = "SELECT order_id, user_id FROM seckill_order WHERE state = 'CONFIRMED' "
            + "AND sale_id = ? AND written_at < NOW(3) - INTERVAL ? SECOND ORDER BY written_at LIMIT ? "
            + "FOR UPDATE SKIP LOCKED";
    /**
     * Never above the stock total: a DB stock that drifted up (reconcile's DB_STOCK_SET repairs it) must not make the
     * sale's expiry fail for ever on the range constraint, its units never coming back.
     */
    private static final String GIVE_BACK = "UPDATE sale SET stock = LEAST(stock + ?, stock_total), version = version + 1"
            + " WHERE id = ?";
    private static final String PENDING = "SELECT order_id, sale_id, user_id FROM unit_return ORDER BY created_at "
            + "LIMIT ?";

    private final DataSource db;

    public LapsedOrderRepository(DataSource db) {
        this.db = db;
    }

    @Override
    public Map<Long, Integer> salesWithConfirmedOrders() {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(SALES);
             ResultSet rs = ps.executeQuery()) {
            Map<Long, Integer> out = new LinkedHashMap<>();
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getInt(2));
            }
            return out;
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to find sales with confirmed orders: " + e.getMessage(), e);
        }
    }

    @Override
    public List<LapsedOrder> expire(long saleId, int payWindowSeconds, int limit) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            // No gap locks: the scan must not block the writer inserting new CONFIRMED rows into the same range.
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            try {
                List<LapsedOrder> lapsed = lapsed(c, saleId, payWindowSeconds, limit);
                if (!lapsed.isEmpty()) {
                    expireAll(c, lapsed);
                    owe(c, lapsed);
                    giveBack(c, saleId, lapsed.size());
                    OrderEventOutbox.append(c, events(OrderStateEvent.Type.EXPIRED, lapsed));
                }
                c.commit();
                return lapsed;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to expire the lapsed orders of sale " + saleId + ": "
                    + e.getMessage(), e);
        }
    }

    private static List<LapsedOrder> lapsed(Connection c, long saleId, int window, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(LAPSED)) {
            ps.setLong(1, saleId);
            ps.setInt(2, window);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<LapsedOrder> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new LapsedOrder(rs.getLong(1), saleId, rs.getLong(2)));
                }
                return out;
            }
        }
    }

    /** The rows are locked by this transaction, so every one must change; anything else is a bug, and rolls back. */
    private static void expireAll(Connection c, List<LapsedOrder> lapsed) throws SQLException {
        String sql = "UPDATE seckill_order SET state = 'EXPIRED', expired_at = NOW(3) WHERE state = 'CONFIRMED' "
                + "AND order_id IN (" + marks(lapsed.size()) + ")";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < lapsed.size(); i++) {
                ps.setLong(i + 1, lapsed.get(i).orderId());
            }
            int changed = ps.executeUpdate();
            if (changed != lapsed.size()) {
                throw new IllegalStateException("expired " + changed + " of " + lapsed.size() + " locked orders");
            }
        }
    }

    private static void owe(Connection c, List<LapsedOrder> lapsed) throws SQLException {
        String sql = "INSERT INTO unit_return (order_id, sale_id, user_id) VALUES "
                + String.join(",", Collections.nCopies(lapsed.size(), "(?,?,?)"));
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int p = 1;
            for (LapsedOrder o : lapsed) {
                ps.setLong(p++, o.orderId());
                ps.setLong(p++, o.saleId());
                ps.setLong(p++, o.userId());
            }
            ps.executeUpdate();
        }
    }

    /** Bumps the version too: the writer's optimistic stock update then re-reads instead of overwriting this. */
    private static void giveBack(Connection c, long saleId, int n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(GIVE_BACK)) {
            ps.setInt(1, n);
            ps.setLong(2, saleId);
            ps.executeUpdate();
        }
    }

    @Override
    public List<LapsedOrder> pendingReturns(int limit) {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(PENDING)) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<LapsedOrder> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new LapsedOrder(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to read the units owed to Redis: " + e.getMessage(), e);
        }
    }

    /**
     * One transaction: lock the owed rows still there, delete them, and record a UNIT_RETURNED event for each. Two
     * instances settling the same rows (both read them as pending) are ordered by the row locks: the second finds
     * them gone and records nothing, so each order's unit is returned once in the events too.
     */
    @Override
    public void settled(Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return;
        }
        String in = " FROM unit_return WHERE order_id IN (" + marks(orderIds.size()) + ")";
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            try {
                List<LapsedOrder> owed = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement("SELECT order_id, sale_id, user_id" + in + " FOR UPDATE")) {
                    bind(ps, orderIds);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            owed.add(new LapsedOrder(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                        }
                    }
                }
                if (!owed.isEmpty()) {
                    try (PreparedStatement ps = c.prepareStatement("DELETE" + in)) {
                        bind(ps, orderIds);
                        ps.executeUpdate();
                    }
                    OrderEventOutbox.append(c, events(OrderStateEvent.Type.UNIT_RETURNED, owed));
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DependencyUnavailable("failed to settle the units given back: " + e.getMessage(), e);
        }
    }

    /** The expiry's changes have no request: their events carry no request id. */
    private static List<OrderEventOutbox.Change> events(OrderStateEvent.Type type, List<LapsedOrder> orders) {
        return orders.stream().map(o -> new OrderEventOutbox.Change(type, o.orderId(), o.saleId(), o.userId(), null))
                .toList();
    }

    private static void bind(PreparedStatement ps, Collection<Long> ids) throws SQLException {
        int i = 1;
        for (long id : ids) {
            ps.setLong(i++, id);
        }
    }

    private static String marks(int n) {
        return n == 1 ? "?" : "?" + ",?".repeat(n - 1);
    }
}
