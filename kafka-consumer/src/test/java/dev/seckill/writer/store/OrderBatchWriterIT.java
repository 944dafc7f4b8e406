package dev.seckill.writer.store;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.GuardBreach;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.batch.Rejection;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.it.Sales;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The batch transaction against the stack's MariaDB: idempotence, the stock guard, the optimistic lock. */
class OrderBatchWriterIT {

    private static HikariDataSource db;
    private static OrderBatchWriter writer;

    @BeforeAll
    static void pool() {
        Stack stack = Stack.get();
        db = DataSources.pool(new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(), stack.dbPassword(), 4));
        writer = new OrderBatchWriter(db, 5);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void writingTheSameBatchTwiceInsertsOnceAndTakesTheStockOnce() throws SQLException {
        long sale = Sales.create(100);
        List<OrderEvent> batch = Sales.orders(sale, 50);

        BatchResult first = writer.write(batch);
        BatchResult again = writer.write(batch);

        assertEquals(50, first.inserted());
        assertEquals(0, first.duplicates());
        assertEquals(0, again.inserted());
        assertEquals(50, again.duplicates());
        assertTrue(again.rejections().isEmpty());
        Sales.assertWrittenOnce(sale, batch);
        assertEquals(50, Sales.stock(sale));
    }

    @Test
    void eachRowInsertedGetsOneConfirmedEventWithItsRequestIdAndARedeliveryNone() throws SQLException {
        long sale = Sales.create(100);
        List<OrderEvent> batch = Sales.orders(sale, 10);
        List<String> requestIds = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            requestIds.add(i % 2 == 0 ? "req-" + i : null);
        }
        // Holding the relay lock, as another relay would, keeps the stack's relay from publishing (and deleting) them.
        try (Connection lock = db.getConnection()) {
            try (PreparedStatement ps = lock.prepareStatement("SELECT name FROM order_event_relay FOR UPDATE");
                 ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
            }
            writer.write(batch, requestIds);
            writer.write(batch, requestIds);

            List<String> events = new ArrayList<>();
            try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "SELECT order_id, type, state, request_id FROM order_event WHERE sale_id = ? ORDER BY seq")) {
                ps.setLong(1, sale);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        events.add(rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
                    }
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                expected.add(batch.get(i).orderId() + " CONFIRMED CONFIRMED " + requestIds.get(i));
            }
            assertEquals(expected, events, "one per row, none for the redelivery");
            lock.rollback();
        }
    }

    @Test
    void redeliveryMixedWithNewOrdersInsertsOnlyTheNewOnes() throws SQLException {
        long sale = Sales.create(60);
        List<OrderEvent> all = Sales.orders(sale, 50);
        writer.write(all.subList(0, 30));

        List<OrderEvent> shuffled = new ArrayList<>(all);
        Collections.shuffle(shuffled, new Random(4));
        BatchResult r = writer.write(shuffled);

        assertEquals(20, r.inserted());
        assertEquals(30, r.duplicates());
        Sales.assertWrittenOnce(sale, all);
    }

    @Test
    void stockGuardWritesTheEarliestOrdersTheStockCoversAndRefusesTheRest() throws SQLException {
        long sale = Sales.create(5);
        List<OrderEvent> batch = Sales.orders(sale, 8);

        BatchResult r = writer.write(batch);

        assertEquals(5, r.inserted());
        assertEquals(List.of(new GuardBreach(sale, 8, 5)), r.breaches());
        assertEquals(List.of(5, 6, 7), r.rejections().stream().map(Rejection::index).toList());
        assertTrue(r.rejections().stream().allMatch(x -> x.reason() == RejectReason.STOCK_GUARD));
        Sales.assertWrittenOnce(sale, batch.subList(0, 5));
        assertEquals(0, Sales.stock(sale));
    }

    @Test
    void guardBreachOfOneSaleLeavesTheOtherSalesOfTheBatchWritten() throws SQLException {
        long scarce = Sales.create(1);
        long plenty = Sales.create(10);
        List<OrderEvent> a = Sales.orders(scarce, 3);
        List<OrderEvent> b = Sales.orders(plenty, 3);
        List<OrderEvent> batch = List.of(a.get(0), b.get(0), a.get(1), b.get(1), a.get(2), b.get(2));

        BatchResult r = writer.write(batch);

        assertEquals(4, r.inserted());
        assertEquals(List.of(2, 4), r.rejections().stream().map(Rejection::index).toList());
        Sales.assertWrittenOnce(scarce, a.subList(0, 1));
        Sales.assertWrittenOnce(plenty, b);
    }

    @Test
    void unknownSaleAndSecondOrderOfAUserAreRejectedAndNothingOfThemIsWritten() throws SQLException {
        long sale = Sales.create(10);
        OrderEvent ok = Sales.orders(sale, 1).getFirst();
        OrderEvent sameUserOtherOrder = OrderEvent.of(Sales.orderId(sale, 2), sale, ok.userId(), 1990, ok.createdAt());
        OrderEvent unknownSale = OrderEvent.of(Sales.orderId(sale, 3), 9_000_000_000L, 3, 1990, ok.createdAt());

        BatchResult r = writer.write(List.of(ok, sameUserOtherOrder, unknownSale));

        assertEquals(1, r.inserted());
        assertEquals(List.of(RejectReason.ORDER_CONFLICT, RejectReason.UNKNOWN_SALE),
                r.rejections().stream().map(Rejection::reason).toList());
        Sales.assertWrittenOnce(sale, List.of(ok));
    }

    @Test
    void userWithAnOrderInTheDatabaseCannotAddASecondOneAndTheRestOfTheBatchIsWritten() throws SQLException {
        long sale = Sales.create(10);
        List<OrderEvent> orders = Sales.orders(sale, 3);
        writer.write(List.of(orders.get(0)));
        // The quick plan (order ids only) does not see user 1's stored order; the insert count gives it away and
        // the batch is planned again with the (sale, user) lookup.
        OrderEvent secondOfUser1 = OrderEvent.of(Sales.orderId(sale, 9), sale, 1, 1990, orders.get(0).createdAt());

        BatchResult r = writer.write(List.of(orders.get(1), secondOfUser1, orders.get(2)));

        assertEquals(2, r.inserted());
        assertEquals(List.of(new Rejection(1, RejectReason.ORDER_CONFLICT,
                "user 1 already has order " + orders.get(0).orderIdValue() + " in sale " + sale)), r.rejections());
        Sales.assertWrittenOnce(sale, orders);
    }

    @Test
    void versionConflictIsRetriedWithTheFreshVersion() throws SQLException {
        long sale = Sales.create(10);
        try (Connection c = db.getConnection()) {
            long staleVersion = version(c, sale);
            // Another transaction changes the row after we read it (an operator's restock, say).
            try (Connection other = Stack.get().db();
                 PreparedStatement ps = other.prepareStatement("UPDATE sale SET version = version + 1 WHERE id = ?")) {
                ps.setLong(1, sale);
                ps.executeUpdate();
            }
            StockGuard.Outcome out = new StockGuard(3).decrement(c, sale, 2, staleVersion);
            c.commit();

            assertTrue(out.applied());
            assertEquals(1, out.conflicts());
            assertEquals(staleVersion + 2, version(c, sale));
        }
        assertEquals(8, Sales.stock(sale));
    }

    @Test
    void twoWritersRacingOnTheSameBatchStillWriteEachOrderOnce() throws Exception {
        long sale = Sales.create(400);
        List<OrderEvent> batch = Sales.orders(sale, 400);
        // A zombie writer finishing a batch its partition's new owner is also writing: whichever loses the race
        // sees its insert count disagree with its plan (or a deadlock), rolls back, and retries as duplicates.
        CompletableFuture<Integer> one = CompletableFuture.supplyAsync(() -> writeUntilDone(batch));
        CompletableFuture<Integer> two = CompletableFuture.supplyAsync(() -> writeUntilDone(batch));

        assertEquals(400, one.get(60, TimeUnit.SECONDS) + two.get(60, TimeUnit.SECONDS));
        Sales.assertWrittenOnce(sale, batch);
    }

    private static int writeUntilDone(List<OrderEvent> batch) {
        SQLException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                return writer.write(batch).inserted();
            } catch (SQLException e) {
                last = e;
            }
        }
        throw new AssertionError("batch kept failing", last);
    }

    private static long version(Connection c, long sale) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT version FROM sale WHERE id = ?")) {
            ps.setLong(1, sale);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
