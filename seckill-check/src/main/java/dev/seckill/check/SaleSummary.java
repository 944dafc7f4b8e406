package dev.seckill.check;

import java.util.List;

/**
 * One sale as the checker saw it: its figures in MySQL and Redis, the purchases answered 202, and the violations and
 * documented exceptions found in it. What a test or the bench prints per sale ({@link #summary()}).
 *
 * @param dbStock        {@code sale.stock}
 * @param dbOrders       every row of the sale, expired ones too
 * @param distinctBuyers the users those rows belong to
 * @param redisRemaining the stock key, null when it is missing
 * @param redisBuyers    the buyer marks
 * @param accepted       purchases answered 202
 * @param lost           {@link Violation.Kind#LOST_ORDER} findings: a 202, or a 503 naming an order, without its row
 * @param liveOrders     CONFIRMED and PAID rows: each holds a unit
 * @param redisReturned  the returned set: units an expiry gave back
 */
public record SaleSummary(long saleId, int stockTotal, long dbStock, long dbOrders, long distinctBuyers,
                          Long redisRemaining, long redisBuyers, long accepted, long lost, long liveOrders, long paid,
                          long expired, long redisReturned, List<Violation> violations, List<Excused> exceptions) {

    static SaleSummary of(FinalSale sale, List<Op> purchases, Findings f) {
        List<FinalOrder> rows = sale.orders();
        List<Violation> violations = f.violations.stream().filter(v -> v.saleId() == sale.saleId()).toList();
        RedisSale redis = sale.redis();
        return new SaleSummary(sale.saleId(), sale.stockTotal(), sale.stock(), rows.size(),
                rows.stream().map(FinalOrder::userId).distinct().count(), redis.remaining(), redis.buyers().size(),
                purchases.stream().filter(o -> o.status() == 202).count(),
                violations.stream().filter(v -> v.kind() == Violation.Kind.LOST_ORDER).count(), sale.live(),
                rows.stream().filter(r -> r.state() == FinalOrder.State.PAID).count(),
                rows.stream().filter(r -> !r.live()).count(), redis.returned().size(), violations,
                f.exceptions.stream().filter(e -> e.saleId() == sale.saleId()).toList());
    }

    public boolean holds() {
        return violations.isEmpty();
    }

    /** The same as {@link #holds()}, as the bench's report and the fault tests read it. */
    public boolean ok() {
        return holds();
    }

    /** Each violation's line ({@link Violation#line()}). */
    public List<String> violationLines() {
        return violations.stream().map(Violation::line).toList();
    }

    /** Live orders beyond the stock. */
    public long oversold() {
        return Math.max(0, liveOrders - stockTotal);
    }

    /** Rows beyond one per buyer. */
    public long duplicates() {
        return dbOrders - distinctBuyers;
    }

    /** One line: the figures, then "all invariants hold" or the violations, and the exceptions if any. */
    public String summary() {
        return "sale " + saleId + ": stock " + stockTotal + ", accepted(202) " + accepted + ", db orders " + dbOrders
                + " (live " + liveOrders + ", paid " + paid + ", expired " + expired + "), db stock " + dbStock
                + ", redis remaining " + redisRemaining + ", redis buyers " + redisBuyers + ", returned "
                + redisReturned + ", buyers " + distinctBuyers + ", oversold " + oversold() + ", duplicates "
                + duplicates() + ", lost " + lost + (holds() ? ", all invariants hold" : ", VIOLATIONS "
                + violationLines())
                + (exceptions.isEmpty() ? "" : "; exceptions " + exceptions.stream().map(Excused::line).toList());
    }
}
