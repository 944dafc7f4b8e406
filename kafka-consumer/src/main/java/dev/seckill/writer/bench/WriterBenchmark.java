package dev.seckill.writer.bench;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures, in one run against one MariaDB, the production batch path ({@link OrderBatchWriter}, one transaction
 * per batch) against a row-at-a-time writer (one transaction per order), and prints one JSON line with both
 * rates and their ratio. Not a test: numbers depend on the machine. Both paths get a warm-up first (JIT, buffer
 * pool); then they run in alternating rounds, so that a noisy neighbour on a shared machine slows both alike, and
 * each rate is total orders over total time. Every run is checked for the invariants (rows = orders, stock taken
 * = rows).
 *
 * <pre>
 * java -cp "kafka-consumer/target/kafka-consumer.jar:kafka-consumer/target/libs/*" \
 *   dev.seckill.writer.bench.WriterBenchmark --jdbc jdbc:mariadb://127.0.0.1:13306/seckill --orders 50000
 * </pre>
 * Options: --jdbc, --user (seckill), --password (seckill), --orders (50000), --batch (1000), --sales (4),
 * --row-orders (orders / 10: the slow path needs fewer to be measured), --rounds (5), --keep (leave the rows).
 */
public final class WriterBenchmark {

    private WriterBenchmark() {
    }

    public static void main(String[] args) throws SQLException {
        Map<String, String> o = options(args);
        int orders = Integer.parseInt(o.getOrDefault("orders", "50000"));
        int batch = Integer.parseInt(o.getOrDefault("batch", "1000"));
        int salesCount = Integer.parseInt(o.getOrDefault("sales", "4"));
        int rowOrders = Integer.parseInt(o.getOrDefault("row-orders", Integer.toString(Math.max(1000, orders / 10))));
        int rounds = Integer.parseInt(o.getOrDefault("rounds", "5"));
        if (orders % (salesCount * rounds) != 0 || rowOrders % rounds != 0) {
            throw new IllegalArgumentException("--orders must be a multiple of --sales x --rounds, --row-orders of --rounds");
        }
        WriterSettings.Db settings = new WriterSettings.Db(
                o.getOrDefault("jdbc", "jdbc:mariadb://127.0.0.1:13306/seckill"),
                o.getOrDefault("user", "seckill"), o.getOrDefault("password", "seckill"), 2);

        try (HikariDataSource db = DataSources.pool(settings)) {
            BenchSales sales = new BenchSales(db);
            OrderBatchWriter writer = new OrderBatchWriter(db, 5);
            try {
                batched(writer, sales, salesCount, Math.min(orders, 10_000), batch);
                rowAtATime(db, sales, Math.min(rowOrders, 1000));

                Run fast = new Run(0, true);
                Run slow = new Run(0, true);
                for (int r = 0; r < rounds; r++) {
                    fast = fast.plus(batched(writer, sales, salesCount, orders / rounds, batch));
                    slow = slow.plus(rowAtATime(db, sales, rowOrders / rounds));
                }
                double fastRate = orders / fast.seconds();
                double slowRate = rowOrders / slow.seconds();
                System.out.println(String.format(Locale.ROOT, "{\"benchmark\":\"writer\",\"orders\":%d,\"batchSize\":%d,"
                                + "\"sales\":%d,\"rounds\":%d,\"batchedSeconds\":%.3f,\"batchedOrdersPerSec\":%.0f,\"rowAtATimeOrders\":%d,"
                                + "\"rowAtATimeSeconds\":%.3f,\"rowAtATimeOrdersPerSec\":%.0f,\"ratio\":%.1f,\"consistent\":%b}",
                        orders, batch, salesCount, rounds, fast.seconds(), fastRate, rowOrders, slow.seconds(), slowRate,
                        fastRate / slowRate, fast.consistent() && slow.consistent()));
            } finally {
                if (!o.containsKey("keep")) {
                    sales.deleteAll();
                }
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

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i]);
            }
            String name = args[i].substring(2);
            if (name.equals("keep")) {
                o.put(name, "true");
            } else if (i + 1 < args.length) {
                o.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
        }
        return o;
    }

    private record Run(double seconds, boolean consistent) {
        Run plus(Run other) {
            return new Run(seconds + other.seconds, consistent && other.consistent);
        }
    }
}
