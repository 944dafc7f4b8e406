package dev.seckill.check;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A sale's rows in MySQL: the sale, its orders with their payments, the units its expiry still owes Redis. */
final class MysqlSale {

    /** What MySQL holds of one sale; {@code found} false when it has no sale row. */
    record Rows(boolean found, int stockTotal, int stock, List<FinalOrder> orders, Set<Long> unitReturns) {
    }

    private static final String SALE = "SELECT stock_total, stock FROM sale WHERE id = ?";
    // payBy is derived where it is read, as the service does (docs/database.md); the CONFIRMED outbox row carries the
    // purchase's request id until the relay deletes it.
    private static final String ORDERS = "SELECT o.order_id, o.user_id, o.state, "
            + "ROUND(UNIX_TIMESTAMP(TIMESTAMPADD(SECOND, s.pay_window_seconds, o.written_at)) * 1000), "
            + "(SELECT e.request_id FROM order_event e WHERE e.order_id = o.order_id AND e.type = 'CONFIRMED'), "
            + "EXISTS (SELECT 1 FROM payment p WHERE p.order_id = o.order_id) "
            + "FROM seckill_order o JOIN sale s ON s.id = o.sale_id WHERE o.sale_id = ? ORDER BY o.order_id";
    private static final String RETURNS = "SELECT order_id FROM unit_return WHERE sale_id = ?";

    private final Connection db;

    /** {@code db} stays the caller's to close. */
    MysqlSale(Connection db) throws SQLException {
        this.db = db;
        try (Statement s = db.createStatement()) {
            // UNIX_TIMESTAMP reads DATETIME in the session's zone; the service stores UTC.
            s.execute("SET time_zone = '+00:00'");
        }
    }

    Rows read(long saleId) throws SQLException {
        int total = 0;
        int stock = 0;
        boolean found;
        try (PreparedStatement ps = db.prepareStatement(SALE)) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                found = rs.next();
                if (found) {
                    total = rs.getInt(1);
                    stock = rs.getInt(2);
                }
            }
        }
        List<FinalOrder> orders = new ArrayList<>();
        try (PreparedStatement ps = db.prepareStatement(ORDERS)) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    orders.add(new FinalOrder(rs.getLong(1), rs.getLong(2), FinalOrder.State.valueOf(rs.getString(3)),
                            rs.getLong(4), rs.getString(5), rs.getBoolean(6)));
                }
            }
        }
        Set<Long> returns = new HashSet<>();
        try (PreparedStatement ps = db.prepareStatement(RETURNS)) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    returns.add(rs.getLong(1));
                }
            }
        }
        return new Rows(found, total, stock, orders, returns);
    }
}
