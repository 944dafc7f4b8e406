package dev.seckill.bench.writer;

import dev.seckill.event.OrderEvent;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/** The benchmark's own sales and orders: created for a run, checked after it, deleted at the end. */
final class BenchSales {

    private final DataSource db;
    private final List<Long> created = new ArrayList<>();
    // Random block far above real order ids, so runs never collide with each other or with real orders.
    private final long orderIdBase = 5_000_000_000_000_000_000L
            + ThreadLocalRandom.current().nextLong(1, 1_000_000) * 1_000_000_000L;
    private long nextOrder;

    BenchSales(DataSource db) {
        this.db = db;
    }

    long create(int stock) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO sale (name, price_cents, stock_total, stock,"
                     + " starts_at, ends_at) VALUES (?, 990, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
            ps.setString(1, "bench-" + orderIdBase + "-" + created.size());
            ps.setInt(2, stock);
            ps.setInt(3, stock);
            ps.setObject(4, now);
            ps.setObject(5, now.plusHours(1));
            ps.executeUpdate();
            c.commit();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                rs.next();
                created.add(rs.getLong(1));
                return rs.getLong(1);
            }
        }
    }

    /** n orders spread round-robin over the sales (one user each), as a partition carrying several sales sees them. */
    List<OrderEvent> orders(List<Long> sales, int n) {
        List<OrderEvent> events = new ArrayList<>(n);
        long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++) {
            long sale = sales.get(i % sales.size());
            events.add(OrderEvent.of(orderIdBase + nextOrder++, sale, 1 + i / sales.size(), 990, now));
        }
        return events;
    }

    /** True when each sale has exactly {@code perSale} rows and its stock went down by exactly that. */
    boolean consistent(List<Long> sales, int perSale) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT s.stock_total - s.stock, COUNT(o.order_id)"
                     + " FROM sale s LEFT JOIN seckill_order o ON o.sale_id = s.id WHERE s.id = ? GROUP BY s.id")) {
            for (long sale : sales) {
                ps.setLong(1, sale);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || rs.getInt(1) != perSale || rs.getInt(2) != perSale) {
                        return false;
                    }
                }
            }
            c.rollback();
            return true;
        }
    }

    /** Deletes every sale this run created and their orders. */
    void deleteAll() throws SQLException {
        if (created.isEmpty()) {
            return;
        }
        String ids = created.stream().map(String::valueOf).collect(Collectors.joining(","));
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM seckill_order WHERE sale_id IN (" + ids + ")");
            s.executeUpdate("DELETE FROM sale WHERE id IN (" + ids + ")");
            c.commit();
        }
    }
}
