package dev.seckill.bench.scenario;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The writer's batch path ({@link OrderBatchWriter}, batches of 1000 over 4 sales) against one order per transaction
 * (insert, guarded stock update, commit on one kept connection: its best case) on the stack's MariaDB, in alternating
 * rounds after a warm-up of each. Its sales are checked (rows = orders = stock taken) and deleted afterwards.
 */
public final class WriterBenchmark {

    private static final int BATCH = 1000;
    private static final int SALES = 4;

    /** Each rate is total orders over total time; {@code rows}: all the batch path wrote, its warm-up's included. */
    public record Result(int orders, int batchSize, int sales, int rounds, double batchedSeconds,
                         double batchedOrdersPerSec, int rowAtATimeOrders, double rowAtATimeSeconds,
                         double rowAtATimeOrdersPerSec, double ratio, boolean consistent, @JsonIgnore int rows) {
    }

    private interface Sql<T> {
        T apply(PreparedStatement ps) throws SQLException;
    }

    private final HikariDataSource db;
    private final OrderBatchWriter writer;
    // Far above real order ids, so runs never collide with each other or with real orders.
    private final long orderIdBase = 5_000_000_000_000_000_000L
            + ThreadLocalRandom.current().nextLong(1, 1_000_000) * 1_000_000_000L;
    private final String names = "bench-writer-" + orderIdBase + "-";
    private long nextOrder;
    private int sales;

    private WriterBenchmark(HikariDataSource db) {
        this.db = db;
        this.writer = new OrderBatchWriter(db, 5);
    }

    /** {@code orders} batched and {@code rowOrders} row at a time (0: none), in {@code rounds} alternating rounds. */
    public static Result run(Stack stack, int orders, int rowOrders, int rounds) throws SQLException {
        try (HikariDataSource db = DataSources.pool(new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(),
                stack.dbPassword(), 2))) {
            WriterBenchmark b = new WriterBenchmark(db);
            try {
                int warm = Math.min(orders, 10_000);
                b.batched(warm);
                b.rowAtATime(Math.min(rowOrders, 1000));
                double fast = 0;
                double slow = 0;
                for (int r = 0; r < rounds; r++) {
                    fast += b.batched(orders / rounds);
                    slow += b.rowAtATime(rowOrders / rounds);
                }
                double slowRate = rowOrders == 0 ? 0 : rowOrders / slow;
                boolean consistent = b.withNames("SELECT COUNT(*) FROM sale s WHERE name LIKE ? AND (stock <> 0 OR"
                        + " stock_total <> (SELECT COUNT(*) FROM seckill_order o WHERE o.sale_id = s.id))", ps -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() && rs.getInt(1) == 0;
                    }
                });
                return new Result(orders, BATCH, SALES, rounds, fast, orders / fast, rowOrders, slow, slowRate,
                        slowRate == 0 ? 0 : orders / fast / slowRate, consistent, warm + orders);
            } finally {
                b.withNames("DELETE FROM seckill_order WHERE sale_id IN (SELECT id FROM sale WHERE name LIKE ?)",
                        PreparedStatement::executeUpdate);
                b.withNames("DELETE FROM sale WHERE name LIKE ?", PreparedStatement::executeUpdate);
            }
        }
    }

    private double batched(int orders) throws SQLException {
        List<OrderEvent> events = new ArrayList<>();
        for (int s = 0; s < SALES; s++) {
            events.addAll(orders(orders / SALES));
        }
        // Round-robin over the sales, as a partition carrying several sales sees them.
        events.sort(Comparator.comparingLong(OrderEvent::userId));
        long start = System.nanoTime();
        for (int from = 0; from < events.size(); from += BATCH) {
            writer.write(events.subList(from, Math.min(events.size(), from + BATCH)));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private double rowAtATime(int orders) throws SQLException {
        if (orders == 0) {
            return 0;
        }
        List<OrderEvent> events = orders(orders);
        long start = System.nanoTime();
        try (Connection c = db.getConnection();
             PreparedStatement insert = c.prepareStatement("INSERT IGNORE INTO seckill_order (order_id, sale_id,"
                     + " user_id, price_cents, created_at) VALUES (?, ?, ?, ?, ?)");
             PreparedStatement take = c.prepareStatement("UPDATE sale SET stock = stock - 1, version = version + 1"
                     + " WHERE id = ? AND stock >= 1")) {
            c.setAutoCommit(false);
            for (OrderEvent e : events) {
                insert.setLong(1, e.orderIdValue());
                insert.setLong(2, e.saleId());
                insert.setLong(3, e.userId());
                insert.setLong(4, e.priceCents());
                insert.setObject(5, LocalDateTime.ofInstant(Instant.ofEpochMilli(e.createdAt()), ZoneOffset.UTC));
                take.setLong(1, e.saleId());
                if (insert.executeUpdate() == 1 && take.executeUpdate() == 1) {
                    c.commit();
                } else {
                    c.rollback();
                }
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** A new sale of {@code n} units and its {@code n} orders, users 1..n. */
    private List<OrderEvent> orders(int n) throws SQLException {
        List<OrderEvent> events = new ArrayList<>(n);
        long sale;
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO sale (name, price_cents, stock_total, stock,"
                     + " starts_at, ends_at) VALUES (?, 990, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP() + INTERVAL 1 HOUR)",
                     Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, names + sales++);
            ps.setInt(2, n);
            ps.setInt(3, n);
            ps.executeUpdate();
            c.commit();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                rs.next();
                sale = rs.getLong(1);
            }
        }
        long now = System.currentTimeMillis();
        for (int i = 1; i <= n; i++) {
            events.add(OrderEvent.of(orderIdBase + nextOrder++, sale, i, 990, now));
        }
        return events;
    }

    /** {@code sql} with this run's sale names as its one parameter. */
    private <T> T withNames(String sql, Sql<T> then) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, names + "%");
            T result = then.apply(ps);
            c.commit();
            return result;
        }
    }
}
