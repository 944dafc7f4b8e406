package dev.seckill.writer.store;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchPlan;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.GuardBreach;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.batch.Rejection;
import dev.seckill.writer.batch.StoredOrder;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One batch, one transaction: read the batch's sales and the orders it may repeat, decide what is new
 * ({@link BatchPlan}), insert the new orders of each sale with one multi-row {@code INSERT IGNORE} and decrement
 * that sale's stock by the rows really inserted ({@link SaleWriter}), commit.
 *
 * <p>Redelivery is harmless: an order already written is a duplicate and changes nothing. The insert count is
 * checked against the plan, so the stock moves by exactly the rows this transaction added. The first plan looks
 * existing orders up by order id only, which finds every redelivery; when an insert count disagrees with it (a
 * user's second, different order, or a second writer racing this one), the transaction is rolled back and planned
 * again with the (sale, user) lookup as well. If that still disagrees, a writer raced us: the batch fails and is
 * retried by the consumer.
 */
public final class OrderBatchWriter implements OrderStore {

    private final DataSource db;
    private final SaleWriter sales;

    /** @param versionAttempts optimistic-lock attempts per sale before the batch is retried as a whole */
    public OrderBatchWriter(DataSource db, int versionAttempts) {
        this.db = db;
        this.sales = new SaleWriter(new StockGuard(versionAttempts));
    }

    @Override
    public BatchResult write(List<OrderEvent> events) throws SQLException {
        if (events.isEmpty()) {
            return BatchResult.EMPTY;
        }
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                BatchResult result;
                try {
                    result = write(c, events, false);
                } catch (ConcurrentWriteException quickPlanMissed) {
                    c.rollback();
                    result = write(c, events, true);
                }
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw e;
            }
        }
    }

    private BatchResult write(Connection c, List<OrderEvent> events, boolean lookUpUsers) throws SQLException {
        Set<Long> saleIds = new LinkedHashSet<>();
        events.forEach(e -> saleIds.add(e.saleId()));
        Map<Long, Long> versions = OrderTable.saleVersions(c, saleIds);
        List<StoredOrder> stored = new ArrayList<>(OrderTable.byOrderId(c, events));
        if (lookUpUsers) {
            stored.addAll(OrderTable.bySaleUser(c, events, versions.keySet()));
        }
        BatchPlan plan = BatchPlan.of(events, versions.keySet(), stored);

        int inserted = 0;
        int conflicts = 0;
        List<Rejection> rejections = new ArrayList<>(plan.rejections());
        List<GuardBreach> breaches = new ArrayList<>();
        for (Map.Entry<Long, List<Integer>> sale : plan.freshBySale().entrySet()) {
            List<Integer> indexes = sale.getValue();
            List<OrderEvent> fresh = indexes.stream().map(events::get).toList();
            SaleWriter.Outcome out = sales.write(c, sale.getKey(), versions.get(sale.getKey()), fresh);
            inserted += out.written();
            conflicts += out.conflicts();
            if (out.breach() != null) {
                breaches.add(out.breach());
                String detail = "sale " + sale.getKey() + " has " + out.breach().stockLeft()
                        + " units in the DB for " + out.breach().requested() + " new orders of this batch";
                for (int i : indexes.subList(out.written(), indexes.size())) {
                    rejections.add(new Rejection(i, RejectReason.STOCK_GUARD, detail));
                }
            }
        }
        rejections.sort(Comparator.comparingInt(Rejection::index));
        return new BatchResult(inserted, plan.duplicates(), rejections, breaches, conflicts);
    }

    private static void rollback(Connection c, Exception cause) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // The connection is likely broken (the DB went away); the server discards the transaction with it.
            cause.addSuppressed(e);
        }
    }
}
