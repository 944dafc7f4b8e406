package dev.seckill.system.reliability;

import dev.seckill.testkit.Stack;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every sale's orders and units, read directly from MySQL: what a fuzz run must not change. The expiry may run
 * meanwhile (an earlier test's unpaid order lapsing): it turns a CONFIRMED order EXPIRED and gives its unit
 * back to the stock, bumping the version, so the snapshot holds what the expiry keeps: the order rows, the paid ones,
 * and units in stock + units held by live orders (which any new order, payment or lost unit would change).
 */
record SaleSnapshot(Map<Long, String> bySale) {

    static SaleSnapshot take() {
        String sql = "SELECT s.id, COUNT(o.order_id), COALESCE(SUM(o.state = 'PAID'), 0), "
                + "s.stock + COALESCE(SUM(o.state <> 'EXPIRED'), 0) "
                + "FROM sale s LEFT JOIN seckill_order o ON o.sale_id = s.id GROUP BY s.id, s.stock";
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = Stack.get().db(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getLong(1), "orders=" + rs.getLong(2) + " paid=" + rs.getLong(3)
                        + " stock+live=" + rs.getLong(4));
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read sales: " + e.getMessage(), e);
        }
        return new SaleSnapshot(out);
    }
}
