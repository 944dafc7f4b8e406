package dev.seckill.order;

import dev.seckill.sale.Sale;

import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * Finds a shopper's order: by its id (the written row, else a reservation in the Redis buyers of a recent sale),
 * or in a sale (the buyer mark in Redis, then that order's row). Only the owner's orders are found; anybody else's
 * are as if they did not exist.
 */
public final class OrderLookup {

    private final OrderSource written;
    private final QueuedOrders queued;
    private final QueuedOrders.BuyerMarks marks;
    private final LongPredicate issuable;

    /** Every id is looked up (unit tests whose orders carry made-up ids). */
    public OrderLookup(OrderSource written, QueuedOrders queued, QueuedOrders.BuyerMarks marks) {
        this(written, queued, marks, id -> true);
    }

    /** @param issuable whether an id could have been issued at all ({@link IssuableOrderIds}); others cost nothing */
    public OrderLookup(OrderSource written, QueuedOrders queued, QueuedOrders.BuyerMarks marks,
                       LongPredicate issuable) {
        this.written = written;
        this.queued = queued;
        this.marks = marks;
        this.issuable = issuable;
    }

    public Optional<Order> byId(long orderId, long userId) {
        if (!issuable.test(orderId)) {
            return Optional.empty();
        }
        Optional<Order> row = written.find(orderId).filter(o -> o.userId() == userId);
        if (row.isPresent()) {
            return row;
        }
        return queued.saleOf(orderId, userId).map(s -> Order.queued(orderId, s.id(), userId, s.priceCents()));
    }

    /**
     * The user's order in a sale: one Redis HGET of the buyer mark, and for a buyer one primary-key read. Cheap by
     * design: every shopper who hears SOLD_OUT may ask. A buyer keeps the mark after the order expires, so a lapsed
     * order is found too (EXPIRED).
     */
    public Optional<Order> inSale(Sale sale, long userId) {
        Optional<String> mark = marks.orderOf(sale.id(), userId);
        if (mark.isEmpty()) {
            return Optional.empty();
        }
        long orderId = Long.parseLong(mark.get());
        Optional<Order> row = written.find(orderId).filter(o -> o.userId() == userId && o.saleId() == sale.id());
        return Optional.of(row.orElseGet(() -> Order.queued(orderId, sale.id(), userId, sale.priceCents())));
    }
}
