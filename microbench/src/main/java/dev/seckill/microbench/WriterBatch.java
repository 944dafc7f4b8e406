package dev.seckill.microbench;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The writer's batch path ({@link OrderBatchWriter}, batches of {@value #BATCH} orders round-robin over
 * {@value #SALES} sales, as a partition carrying several sales delivers them) against one order per transaction
 * (insert, guarded stock update, commit on one kept connection: its best case), in orders per second, on the MariaDB
 * of the stack the environment names (the test kit's {@link Stack}: bin/lib/bench.sh exports the bench stack's ports
 * and run directory). Each trial writes into sales of its own; at its end they must hold one row per order and have
 * lost one unit per row (else the trial fails), and are deleted.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
public class WriterBatch {

    static final int BATCH = 1000;
    static final int SALES = 4;
    /** Units per sale: more than any trial writes, so the stock guard never refuses. */
    private static final int STOCK = 1_000_000_000;

    private HikariDataSource db;
    private OrderBatchWriter writer;
    private final long[] sales = new long[SALES];
    // Far above real order ids, so trials never collide with each other or with real orders.
    private final long orderIdBase = 5_000_000_000_000_000_000L
            + ThreadLocalRandom.current().nextLong(1, 1_000_000) * 1_000_000_000L;
    private final String names = "bench-writer-" + orderIdBase + "-";
    private long orders;
    private Connection row;
    private PreparedStatement insert;
    private PreparedStatement take;

    @Setup(Level.Trial)
    public void open() throws SQLException {
        Stack stack = Stack.get();
        db = DataSources.pool(new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(), stack.dbPassword(), 2));
        writer = new OrderBatchWriter(db, 5);
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO sale (name, price_cents, stock_total, stock,"
                     + " starts_at, ends_at) VALUES (?, 990, ?, ?, UTC_TIMESTAMP(), UTC_TIMESTAMP() + INTERVAL 1 HOUR)",
                     Statement.RETURN_GENERATED_KEYS)) {
            for (int s = 0; s < SALES; s++) {
                ps.setString(1, names + s);
                ps.setInt(2, STOCK);
                ps.setInt(3, STOCK);
                ps.executeUpdate();
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    rs.next();
                    sales[s] = rs.getLong(1);
                }
            }
            c.commit();
        }
        row = db.getConnection();
        row.setAutoCommit(false);
        insert = row.prepareStatement("INSERT IGNORE INTO seckill_order (order_id, sale_id, user_id, price_cents,"
                + " created_at) VALUES (?, ?, ?, ?, ?)");
        take = row.prepareStatement("UPDATE sale SET stock = stock - 1, version = version + 1 WHERE id = ? AND"
                + " stock >= 1");
    }

    /** The next order: a new buyer of the next sale in turn. */
    private OrderEvent next() {
        long n = orders++;
        return OrderEvent.of(orderIdBase + n, sales[(int) (n % SALES)], n + 1, 990, System.currentTimeMillis());
    }

    /** One batch as the writer writes it; building its events costs microseconds of its milliseconds. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object batched() throws SQLException {
        List<OrderEvent> events = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            events.add(next());
        }
        return writer.write(events);
    }

    @Benchmark
    public boolean rowAtATime() throws SQLException {
        OrderEvent e = next();
        insert.setLong(1, e.orderIdValue());
        insert.setLong(2, e.saleId());
        insert.setLong(3, e.userId());
        insert.setLong(4, e.priceCents());
        insert.setObject(5, LocalDateTime.ofInstant(Instant.ofEpochMilli(e.createdAt()), ZoneOffset.UTC));
        take.setLong(1, e.saleId());
        if (insert.executeUpdate() == 1 && take.executeUpdate() == 1) {
            row.commit();
            return true;
        }
        row.rollback();
        return false;
    }

    /** Fails the trial unless its sales hold a row per order and lost a unit per row; then deletes them. */
    @TearDown(Level.Trial)
    public void checkAndDelete() throws SQLException {
        try {
            row.close();
            long inconsistent = withNames("SELECT COUNT(*) FROM sale s WHERE name LIKE ? AND stock_total - stock <>"
                    + " (SELECT COUNT(*) FROM seckill_order o WHERE o.sale_id = s.id)", ps -> {
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getLong(1);
                        }
                    });
            long rows = withNames("SELECT COUNT(*) FROM seckill_order WHERE sale_id IN (SELECT id FROM sale WHERE"
                    + " name LIKE ?)", ps -> {
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getLong(1);
                        }
                    });
            if (inconsistent > 0 || rows != orders) {
                throw new IllegalStateException(orders + " orders written as " + rows + " rows, " + inconsistent
                        + " sales whose stock did not move by their rows");
            }
        } finally {
            withNames("DELETE FROM seckill_order WHERE sale_id IN (SELECT id FROM sale WHERE name LIKE ?)",
                    PreparedStatement::executeUpdate);
            withNames("DELETE FROM sale WHERE name LIKE ?", PreparedStatement::executeUpdate);
            db.close();
        }
    }

    private interface Sql<T> {
        T apply(PreparedStatement ps) throws SQLException;
    }

    /** {@code sql} with this trial's sale names as its one parameter, committed. */
    private <T> T withNames(String sql, Sql<T> then) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, names + "%");
            T result = then.apply(ps);
            c.commit();
            return result;
        }
    }
}
