package dev.seckill.system.reliability;

import dev.seckill.testkit.Stack;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/** Every sale's DB stock and order count, read directly from MySQL: what a fuzz run must not change. */
record SaleSnapshot(Map<Long, String> bySale) {

    static SaleSnapshot take() {
        String sql = "SELECT s.id, s.stock, s.version, (SELECT COUNT(*) FROM seckill_order o WHERE o.sale_id = s.id) "
                + "FROM sale s";
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = Stack.get().db(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getLong(1), "stock=" + rs.getLong(2) + " version=" + rs.getLong(3) + " orders=" + rs.getLong(4));
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read sales: " + e.getMessage(), e);
        }
        return new SaleSnapshot(out);
    }
}
