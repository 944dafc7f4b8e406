package dev.seckill.admin;

import dev.seckill.order.OrderCounts;

/**
 * The consistency view of one sale ({@code GET /admin/sales/{id}/stats}): Redis and the database side by side, and
 * whether they satisfy the conservation invariant of docs/invariants.md.
 *
 * @param redisRemaining null when Redis has no stock key for the sale (lost, or never preheated)
 * @param redisBuyers    buyer marks, lapsed buyers included (they keep theirs)
 * @param redisReturned  orders whose unit release.lua gave back
 * @param orders         written orders by state
 * @param unitsOwed      units expired orders still owe to Redis (the expiry's next pass pays them)
 * @param consumerLag    events on the orders topic the writer has not committed yet
 * @param archived       the sale was settled and archived: its Redis keys expire on purpose (docs/redis.md), so
 *                       only the database is judged; without the mark, missing keys are lost data
 */
public record SaleStats(long saleId, long stockTotal, long dbStock, Long redisRemaining, long redisBuyers,
                        long redisReturned, OrderCounts orders, long unitsOwed, long consumerLag, boolean archived) {

    /** A sale that is not archived. */
    public SaleStats(long saleId, long stockTotal, long dbStock, Long redisRemaining, long redisBuyers,
                     long redisReturned, OrderCounts orders, long unitsOwed, long consumerLag) {
        this(saleId, stockTotal, dbStock, redisRemaining, redisBuyers, redisReturned, orders, unitsOwed, consumerLag,
                false);
    }

    /**
     * Conservation, judged only once the writer has caught up and the expiry has paid Redis what it owes (before
     * that, orders and units in flight make any comparison meaningless): every unit is either still in Redis or held
     * by a live order (CONFIRMED, PAID), every order has its buyer mark, every expired order's unit came back once,
     * and the database's own stock column agrees with its live orders. Missing Redis stock is never consistent.
     */
    public boolean consistent() {
        long live = orders.live();
        if (archived) {
            // Settled and archived: what Redis still holds is on its way out; the database alone is the record.
            return consumerLag == 0 && dbStock == stockTotal - live;
        }
        return consumerLag == 0
                && unitsOwed == 0
                && redisRemaining != null
                && stockTotal == redisRemaining + live
                && redisBuyers == orders.total()
                && redisReturned == orders.expired()
                && dbStock == stockTotal - live;
    }
}
