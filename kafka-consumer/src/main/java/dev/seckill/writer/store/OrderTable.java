package dev.seckill.writer.store;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.StoredOrder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The SQL of a batch against {@code sale} and {@code seckill_order}: one statement per call, no logic. */
final class OrderTable {

    private OrderTable() {
    }

    /** Current version of each sale among {@code ids} that exists; a missing id is an unknown sale. */
    static Map<Long, Long> saleVersions(Connection c, Collection<Long> ids) throws SQLException {
        Map<Long, Long> versions = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, version FROM sale WHERE id IN (" + marks(ids.size()) + ")")) {
            int i = 1;
            for (long id : ids) {
                ps.setLong(i++, id);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    versions.put(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        return versions;
    }

    /** Orders already stored with an order id of the batch: finds every redelivery (one primary-key lookup each). */
    static List<StoredOrder> byOrderId(Connection c, List<OrderEvent> events) throws SQLException {
        List<StoredOrder> found = new ArrayList<>();
        List<Long> orderIds = events.stream().map(OrderEvent::orderIdValue).distinct().toList();
        select(c, "SELECT order_id, sale_id, user_id FROM seckill_order WHERE order_id IN ("
                + marks(orderIds.size()) + ")", orderIds, found);
        return found;
    }

    /**
     * Orders already stored for a (sale, user) of the batch's events of known sales: finds a user's other order,
     * which only a second, different order of the same user (a bug or a forgery upstream) would need.
     */
    static List<StoredOrder> bySaleUser(Connection c, List<OrderEvent> events, Set<Long> knownSales)
            throws SQLException {
        List<StoredOrder> found = new ArrayList<>();
        Map<Long, List<Long>> usersBySale = new LinkedHashMap<>();
        for (OrderEvent e : events) {
            if (knownSales.contains(e.saleId())) {
                usersBySale.computeIfAbsent(e.saleId(), s -> new ArrayList<>()).add(e.userId());
            }
        }
        // One query per sale so that the lookup walks the UNIQUE (sale_id, user_id) index.
        for (Map.Entry<Long, List<Long>> sale : usersBySale.entrySet()) {
            List<Long> params = new ArrayList<>();
            params.add(sale.getKey());
            sale.getValue().stream().distinct().forEach(params::add);
            select(c, "SELECT order_id, sale_id, user_id FROM seckill_order WHERE sale_id = ? AND user_id IN ("
                    + marks(params.size() - 1) + ")", params, found);
        }
        return found;
    }

    /**
     * One multi-row {@code INSERT IGNORE}: a row whose order id or (sale, user) already exists is skipped, and
     * the returned update count is exactly the number of rows inserted.
     */
    static int insertIgnore(Connection c, List<OrderEvent> orders) throws SQLException {
        StringBuilder sql = new StringBuilder(
                "INSERT IGNORE INTO seckill_order (order_id, sale_id, user_id, price_cents, created_at) VALUES ");
        for (int i = 0; i < orders.size(); i++) {
            sql.append(i == 0 ? "(?,?,?,?,?)" : ",(?,?,?,?,?)");
        }
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int p = 1;
            for (OrderEvent o : orders) {
                ps.setLong(p++, o.orderIdValue());
                ps.setLong(p++, o.saleId());
                ps.setLong(p++, o.userId());
                ps.setLong(p++, o.priceCents());
                ps.setObject(p++, utc(o.createdAt()));
            }
            return ps.executeUpdate();
        }
    }

    /** Epoch millis as the UTC wall-clock time a DATETIME(3) column holds (the session zone is +00:00). */
    static LocalDateTime utc(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    private static void select(Connection c, String sql, List<Long> params, List<StoredOrder> into)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setLong(i + 1, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    into.add(new StoredOrder(rs.getLong(1), rs.getLong(2), rs.getLong(3)));
                }
            }
        }
    }

    private static String marks(int n) {
        return n == 1 ? "?" : "?" + ",?".repeat(n - 1);
    }
}
