package dev.seckill.writer.store;

import dev.seckill.event.OrderEvent;
import dev.seckill.event.OrderEventOutbox;
import dev.seckill.event.OrderStateEvent;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One batch, one transaction: read the batch's sales and the orders it may repeat, decide what is new
 * ({@link BatchPlan}), insert every new order with one multi-row {@code INSERT IGNORE}, then decrement each sale's
 * stock by the rows inserted for it through the {@link StockGuard}, record a CONFIRMED order event per row inserted
 * in the outbox ({@link OrderEventOutbox}), and commit.
 *
 * <p>The insert count is checked against the plan, so the stock moves by exactly the rows this transaction added;
 * a redelivered order is a duplicate and changes nothing. A pass that cannot be committed is rolled back and the
 * next pass knows more, so the loop ends:
 * <ul>
 *   <li>the guard refuses a sale (its DB stock cannot cover the new orders: an invariant breach between Redis and
 *   the DB): the next pass writes only the earliest orders of that sale the stock covers and refuses the rest;</li>
 *   <li>the insert count is below the plan (the first plan looks stored orders up by order id only, which finds
 *   every redelivery, and misses a user's second, different order): the next pass also looks up (sale, user). If
 *   that still disagrees, another writer raced this one: the batch fails and the consumer retries it.</li>
 * </ul>
 */
public final class OrderBatchWriter implements OrderStore {

    private final DataSource db;
    private final StockGuard guard;

    /** @param versionAttempts optimistic-lock attempts per sale before the batch is retried as a whole */
    public OrderBatchWriter(DataSource db, int versionAttempts) {
        this.db = db;
        this.guard = new StockGuard(versionAttempts);
    }

    @Override
    public BatchResult write(List<OrderEvent> events, List<String> requestIds) throws SQLException {
        if (events.isEmpty()) {
            return BatchResult.EMPTY;
        }
        if (requestIds.size() != events.size()) {
            throw new IllegalArgumentException(events.size() + " events but " + requestIds.size() + " request ids");
        }
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                BatchResult result = write(c, events, requestIds);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(c, e);
                throw e;
            }
        }
    }

    private BatchResult write(Connection c, List<OrderEvent> events, List<String> requestIds) throws SQLException {
        Set<Long> saleIds = new LinkedHashSet<>();
        events.forEach(e -> saleIds.add(e.saleId()));
        // Per sale, the guard's first refusal; its stockLeft caps that sale in every later pass.
        Map<Long, GuardBreach> breaches = new LinkedHashMap<>();
        boolean lookUpUsers = false;
        int conflicts = 0;
        while (true) {
            Map<Long, Long> versions = OrderTable.saleVersions(c, saleIds);
            List<StoredOrder> stored = new ArrayList<>(OrderTable.byOrderId(c, events));
            if (lookUpUsers) {
                stored.addAll(OrderTable.bySaleUser(c, events, versions.keySet()));
            }
            BatchPlan plan = BatchPlan.of(events, versions.keySet(), stored);
            List<Rejection> rejections = new ArrayList<>(plan.rejections());
            Map<Long, List<Integer>> writing = capped(plan, breaches, rejections);
            List<Integer> written = writing.values().stream().flatMap(List::stream).toList();
            List<OrderEvent> rows = written.stream().map(events::get).toList();

            int inserted = rows.isEmpty() ? 0 : OrderTable.insertIgnore(c, rows);
            if (inserted != rows.size()) {
                c.rollback();
                if (lookUpUsers) {
                    throw new ConcurrentWriteException(rows.size() + " new orders but " + inserted
                            + " inserted: another writer wrote some of them since this batch read");
                }
                lookUpUsers = true;
                continue;
            }
            boolean refused = false;
            for (Map.Entry<Long, List<Integer>> sale : writing.entrySet()) {
                int n = sale.getValue().size();
                if (n == 0) {
                    continue;
                }
                StockGuard.Outcome taken = guard.decrement(c, sale.getKey(), n, versions.get(sale.getKey()));
                conflicts += taken.conflicts();
                if (!taken.applied()) {
                    refused = true;
                    int requested = plan.freshBySale().get(sale.getKey()).size();
                    breaches.merge(sale.getKey(), new GuardBreach(sale.getKey(), requested, taken.stockLeft()),
                            (first, now) -> new GuardBreach(first.saleId(), first.requested(), now.stockLeft()));
                }
            }
            if (refused) {
                c.rollback();
                continue;
            }
            // Exactly the rows this transaction inserted (the count matched the plan): their CONFIRMED events.
            OrderEventOutbox.append(c, written.stream().map(i -> confirmed(events.get(i), requestIds.get(i))).toList());
            rejections.sort(Comparator.comparingInt(Rejection::index));
            return new BatchResult(inserted, plan.duplicates(), rejections, List.copyOf(breaches.values()), conflicts);
        }
    }

    private static OrderEventOutbox.Change confirmed(OrderEvent e, String requestId) {
        return new OrderEventOutbox.Change(OrderStateEvent.Type.CONFIRMED, e.orderIdValue(), e.saleId(), e.userId(),
                requestId);
    }

    /**
     * The new orders to write per sale: all of them, or for a sale the guard refused, the earliest ones its stock
     * covers; the others are added to {@code rejections} as STOCK_GUARD.
     */
    private static Map<Long, List<Integer>> capped(BatchPlan plan, Map<Long, GuardBreach> breaches,
                                                   List<Rejection> rejections) {
        Map<Long, List<Integer>> writing = new LinkedHashMap<>();
        for (Map.Entry<Long, List<Integer>> sale : plan.freshBySale().entrySet()) {
            List<Integer> fresh = sale.getValue();
            GuardBreach breach = breaches.get(sale.getKey());
            int keep = breach == null ? fresh.size() : Math.min(fresh.size(), breach.stockLeft());
            writing.put(sale.getKey(), fresh.subList(0, keep));
            for (int i : fresh.subList(keep, fresh.size())) {
                rejections.add(new Rejection(i, RejectReason.STOCK_GUARD, "sale " + sale.getKey() + " has "
                        + breach.stockLeft() + " units in the DB for " + breach.requested() + " new orders of this batch"));
            }
        }
        return writing;
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
