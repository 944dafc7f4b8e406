package dev.seckill.admin;

import dev.seckill.order.OrderCounts;
import dev.seckill.order.OrderRow;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The consistency view of one sale ({@code GET /admin/sales/{id}/stats}): Redis and the database side by side, and
 * whether they satisfy the conservation invariant of docs/invariants.md, judged as sets ({@link Conservation}).
 *
 * @param redisRemaining null when Redis has no stock key for the sale (lost, or never preheated)
 * @param buyers         the buyer marks, userId to orderId, lapsed buyers included (they keep theirs)
 * @param returned       the order ids whose unit release.lua gave back
 * @param rows           every written order of the sale
 * @param unitsOwed      units expired orders still owe to Redis (the expiry's next pass pays them)
 * @param consumerLag    events on the orders topic the writer has not committed yet
 * @param archived       the sale was settled and archived: its Redis keys expire on purpose (docs/redis.md), so
 *                       only the database is judged; without the mark, missing keys are lost data
 */
public record SaleStats(long saleId, long stockTotal, long dbStock, Long redisRemaining, Map<Long, Long> buyers,
                        Set<Long> returned, List<OrderRow> rows, long unitsOwed, long consumerLag, boolean archived) {

    public long redisBuyers() {
        return buyers.size();
    }

    public long redisReturned() {
        return returned.size();
    }

    /** The written orders by state. */
    public OrderCounts orders() {
        long confirmed = 0;
        long paid = 0;
        long expired = 0;
        for (OrderRow r : rows) {
            switch (r.state()) {
                case QUEUED, CONFIRMED -> confirmed++; // QUEUED is never stored: a row is at least CONFIRMED
                case PAID -> paid++;
                case EXPIRED -> expired++;
            }
        }
        return new OrderCounts(confirmed, paid, expired);
    }

    /**
     * What disagrees, none when consistent. Judged only once the writer has caught up and the expiry has paid Redis
     * what it owes (before that, orders and units in flight make any comparison meaningless, and the list starts by
     * saying so).
     */
    public List<Disagreement> disagreements() {
        return Conservation.judge(this);
    }

    /**
     * Conservation: every unit is either still in Redis or held by a live order (CONFIRMED, PAID), the buyer marks
     * and the rows agree one to one (same users, same order ids), the returned set is exactly the expired orders,
     * and the database's own stock column agrees with its live orders. Missing Redis stock is never consistent.
     */
    public boolean consistent() {
        return disagreements().isEmpty();
    }
}
