package dev.seckill.testkit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;

/**
 * A sale's written orders read from MySQL directly (never through the service), for a test to hold them one to one
 * against the order ids its answers named.
 */
public final class SaleRows {

    private SaleRows() {
    }

    /** userId to orderId (as the answers spell it) of every row of the sale, whatever its state; sorted by user. */
    public static Map<Long, String> of(Topology topology, long saleId) {
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = topology.db();
             PreparedStatement ps = c.prepareStatement("SELECT user_id, order_id FROM seckill_order WHERE sale_id = ?")) {
            ps.setLong(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), Long.toString(rs.getLong(2)));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read the rows of sale " + saleId + ": " + e.getMessage(), e);
        }
        return out;
    }

    /**
     * Fails unless the sale's rows are exactly the orders the 202s named ({@code named}: orderId to userId): the
     * same users, each with the order id its answer gave; no row without its answer, no answer without its row.
     */
    public static void assertAreTheNamedOrders(Topology topology, long saleId, Map<String, Long> named) {
        Map<Long, String> answered = new TreeMap<>();
        named.forEach((order, user) -> answered.put(user, order));
        Map<Long, String> rows = of(topology, saleId);
        if (answered.size() != named.size() || !answered.equals(rows)) {
            Map<Long, String> unanswered = new TreeMap<>(rows);
            unanswered.entrySet().removeAll(answered.entrySet());
            Map<Long, String> unwritten = new TreeMap<>(answered);
            unwritten.entrySet().removeAll(rows.entrySet());
            throw new AssertionError("the rows of sale " + saleId + " are not the orders its 202s named: "
                    + named.size() + " named (" + answered.size() + " users), " + rows.size() + " rows; rows no 202 "
                    + "named " + unanswered + ", named orders without their row " + unwritten);
        }
    }
}
