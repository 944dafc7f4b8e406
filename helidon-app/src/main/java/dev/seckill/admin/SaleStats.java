package dev.seckill.admin;

/**
 * The consistency view of one sale ({@code GET /admin/sales/{id}/stats}): Redis and the database side by side, and
 * whether they satisfy the conservation invariant of docs/contract.md.
 *
 * @param redisRemaining null when Redis has no stock key for the sale (lost, or never preheated)
 * @param consumerLag    events on the orders topic the writer has not committed yet
 */
public record SaleStats(long saleId, long stockTotal, long dbStock, Long redisRemaining, long redisBuyers,
                        long dbOrders, long consumerLag) {

    /**
     * Conservation, judged only once the writer has caught up (before that, orders in flight make any comparison
     * meaningless): every unit is either still in Redis or a written order, every buyer Redis recorded has a
     * written order, and the database's own stock column agrees with its orders. Missing Redis stock is never
     * consistent.
     */
    public boolean consistent() {
        return consumerLag == 0
                && redisRemaining != null
                && stockTotal == redisRemaining + dbOrders
                && redisBuyers == dbOrders
                && dbStock == stockTotal - dbOrders;
    }
}
