package dev.seckill.bench.writer;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures, in one run against one MariaDB, the writer's production batch path ({@link OrderBatchWriter}, one
 * transaction per batch) against a row-at-a-time writer (one transaction per order). Not a test: numbers depend on
 * the machine. Both paths get a warm-up first (JIT, buffer pool); then they run in alternating rounds, so that a
 * noisy neighbour on a shared machine slows both alike, and each rate is total orders over total time. Every run is
 * checked for the invariants (rows = orders, stock taken = rows). It lives in the bench module, not in the writer's
 * jar: production ships without it. {@code bin/seckill bench} runs it among its ceilings ({@code Ceilings}).
 */
public final class WriterBenchmark {

    /**
     * What to run: {@code orders} through the batch path in batches of {@code batch}, spread over {@code sales};
     * {@code rowOrders} through the row-at-a-time path (it needs fewer to be measured); {@code rounds} of each.
     */
    public record Options(int orders, int batch, int sales, int rowOrders, int rounds) {

        public Options {
            if (orders % (sales * rounds) != 0 || rowOrders % rounds != 0) {
                throw new IllegalArgumentException("orders must be a multiple of sales x rounds, rowOrders of rounds");
            }
        }

        /** {@code orders} in batches of 1000 over 4 sales, a tenth of them (at least 1000) row at a time, 5 rounds. */
        public static Options of(int orders) {
            return new Options(orders, 1000, 4, Math.max(1000, orders / 10), 5);
        }
    }

    /** Both rates and their ratio; {@code consistent} when every run kept the invariants. */
    public record Result(int orders, int batchSize, int sales, int rounds, double batchedSeconds,
                         double batchedOrdersPerSec, int rowAtATimeOrders, double rowAtATimeSeconds,
                         double rowAtATimeOrdersPerSec, double ratio, boolean consistent) {
    }

    private WriterBenchmark() {
    }

    /** Runs against the stack's database; the sales and orders it made are deleted afterwards. */
    public static Result run(Stack stack, Options o) throws SQLException {
        WriterSettings.Db settings = new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(), stack.dbPassword(), 2);
        try (HikariDataSource db = DataSources.pool(settings)) {
            BenchSales sales = new BenchSales(db);
            OrderBatchWriter writer = new OrderBatchWriter(db, 5);
            try {
                batched(writer, sales, o.sales(), Math.min(o.orders(), 10_000), o.batch());
                rowAtATime(db, sales, Math.min(o.rowOrders(), 1000));

                Run fast = new Run(0, true);
                Run slow = new Run(0, true);
                for (int r = 0; r < o.rounds(); r++) {
                    fast = fast.plus(batched(writer, sales, o.sales(), o.orders() / o.rounds(), o.batch()));
                    slow = slow.plus(rowAtATime(db, sales, o.rowOrders() / o.rounds()));
                }
                double fastRate = o.orders() / fast.seconds();
                double slowRate = o.rowOrders() / slow.seconds();
                return new Result(o.orders(), o.batch(), o.sales(), o.rounds(), fast.seconds(), fastRate,
                        o.rowOrders(), slow.seconds(), slowRate, fastRate / slowRate,
                        fast.consistent() && slow.consistent());
            } finally {
                sales.deleteAll();
            }
        }
    }

    /**
     * The batch path alone, as the writer runs it: {@code orders} in batches of 1,000 over 4 sales, after a warm-up of
     * 10,000; returns how many rows were written, the warm-up's included (all of them, or it throws), the sales
     * deleted afterwards.
     */
    public static int batchedOnly(Stack stack, int orders) throws SQLException {
        WriterSettings.Db settings = new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(), stack.dbPassword(), 2);
        try (HikariDataSource db = DataSources.pool(settings)) {
            BenchSales sales = new BenchSales(db);
            OrderBatchWriter writer = new OrderBatchWriter(db, 5);
            try {
                int warm = 10_000;
                if (!batched(writer, sales, 4, warm, 1000).consistent()
                        || !batched(writer, sales, 4, orders, 1000).consistent()) {
                    throw new SQLException("the batch path wrote an inconsistent sale");
                }
                return warm + orders;
            } finally {
                sales.deleteAll();
            }
        }
    }

    private static Run batched(OrderBatchWriter writer, BenchSales sales, int salesCount, int orders, int batch)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (int s = 0; s < salesCount; s++) {
            ids.add(sales.create(orders / salesCount));
        }
        List<OrderEvent> events = sales.orders(ids, orders);
        long start = System.nanoTime();
        for (int from = 0; from < events.size(); from += batch) {
            writer.write(events.subList(from, Math.min(events.size(), from + batch)));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(seconds, sales.consistent(ids, orders / salesCount));
    }

    private static Run rowAtATime(HikariDataSource db, BenchSales sales, int orders) throws SQLException {
        long sale = sales.create(orders);
        List<OrderEvent> events = sales.orders(List.of(sale), orders);
        long start = System.nanoTime();
        try (RowAtATimeWriter row = new RowAtATimeWriter(db.getConnection())) {
            for (OrderEvent e : events) {
                row.write(e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Run(seconds, sales.consistent(List.of(sale), orders));
    }

    private record Run(double seconds, boolean consistent) {
        Run plus(Run other) {
            return new Run(seconds + other.seconds, consistent && other.consistent);
        }
    }
}
