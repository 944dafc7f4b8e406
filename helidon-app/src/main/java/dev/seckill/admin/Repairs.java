package dev.seckill.admin;

import dev.seckill.sale.Sale;
import dev.seckill.sale.StockChange;

import java.util.Map;
import java.util.Set;

/**
 * The changes reconcile makes to a sale's state. A real run gets {@link LiveRepairs}; a dry run gets
 * {@link DryRunRepairs}, which changes nothing and predicts what the changes would have done, so the steps of
 * {@link Reconciler} are written once for both.
 */
interface Repairs {

    /**
     * Puts lost keys back from the database: a buyer mark per written order, the expired ones as returned, then
     * stock (total - live orders) and window.
     */
    void rebuild(Sale sale, Map<Long, Long> written, Set<Long> expired);

    /**
     * Gives back the unit of a reservation that never became an order, unless a send of it began at or after
     * {@code sentBefore} (then a resend raced reconcile, and the unit stays).
     *
     * @return false when it gave nothing back (a resend began meanwhile, or the mark is no longer this order)
     */
    boolean release(long saleId, long userId, long orderId, long sentBefore);

    /** Forgets the unsent entry of an order no reservation waits to resend. */
    void dropUnsent(long saleId, long userId, long orderId);

    /** Puts back the buyer mark of a written order. */
    void mark(long saleId, long userId, long orderId);

    /** Counts an expired order's unit as returned, without touching the stock (conserve sets that). */
    void returned(long saleId, long orderId);

    /** Sets remaining = stock_total - (buyers - returned), atomically with purchases and releases. */
    StockChange conserve(Sale sale);

    /** Sets the database's stock column from its written orders. */
    void repairDbStock(long saleId);
}
