package dev.seckill.check;

import java.util.List;
import java.util.Set;

/**
 * One sale at the end of a run, read from MySQL and from Redis directly.
 *
 * @param found       whether MySQL has the sale's row (stockTotal and stock are 0 without it)
 * @param orders      every {@code seckill_order} row of the sale
 * @param unitReturns the order ids of its {@code unit_return} rows: units the expiry still owes Redis
 * @param redis       its keys on the master serving their slot
 */
public record FinalSale(long saleId, boolean found, int stockTotal, int stock, List<FinalOrder> orders,
                        Set<Long> unitReturns, RedisSale redis) {

    /** The CONFIRMED and PAID orders: each holds a unit. */
    public long live() {
        return orders.stream().filter(FinalOrder::live).count();
    }
}
