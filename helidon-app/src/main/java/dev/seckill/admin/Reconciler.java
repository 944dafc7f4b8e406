package dev.seckill.admin;

import dev.seckill.http.Answers;
import dev.seckill.order.OrderRepository;
import dev.seckill.purchase.OrderIds;
import dev.seckill.purchase.StockReserver;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compares a sale's Redis state (remaining, buyers -> order id) with MySQL (stock, orders) once the writer has
 * caught up, and repairs what a crash or a data loss left behind (DESIGN.md, "What a crash can do"):
 * <ul>
 *   <li>Redis keys missing: rebuilt from the DB (buyers from the orders, remaining = total - orders); until then
 *   purchases of the sale answer 503, because purchase.lua finds no keys;</li>
 *   <li>a buyer in Redis with no DB order, older than the grace period (longer than the producer's delivery
 *   timeout, so an event a dying service did hand to Kafka has landed): the service died between the script and
 *   the Kafka ack; the unit goes back;</li>
 *   <li>a DB order with no buyer mark (Redis lost data): the mark is put back;</li>
 *   <li>then remaining is set to total - buyers inside Redis (atomic with purchases), and a DB stock that
 *   disagrees with the written orders is repaired.</li>
 * </ul>
 * A dry run reports the same actions without doing them.
 */
public final class Reconciler {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final OrderRepository orders;
    private final StockReserver reserver;
    private final ConsumerLag lag;
    private final Clock clock;
    private final Duration minGrace;

    public Reconciler(SaleRepository sales, SaleStock stock, OrderRepository orders, StockReserver reserver,
                      ConsumerLag lag, Clock clock, Duration minGrace) {
        this.sales = sales;
        this.stock = stock;
        this.orders = orders;
        this.reserver = reserver;
        this.lag = lag;
        this.clock = clock;
        this.minGrace = minGrace;
    }

    /** The smallest grace period allowed: longer than the producer's delivery timeout. */
    public Duration minGrace() {
        return minGrace;
    }

    /** One repair (or its plan, for a dry run). */
    public record Action(String action, Long userId, String orderId, String detail) {
    }

    /** What reconcile found and did; {@code writerLag > 0} means it did nothing and must be retried. */
    public record Report(long saleId, boolean dryRun, long writerLag, int pending, List<Action> actions) {

        public boolean writerBehind() {
            return writerLag > 0;
        }

        public Map<String, Object> json() {
            return Answers.body("code", writerBehind() ? "WRITER_BEHIND" : "RECONCILED", "saleId", saleId,
                    "dryRun", dryRun, "writerLag", writerLag, "pendingBuyers", pending, "actions", actions);
        }
    }

    public Report reconcile(Sale sale, boolean dryRun, Duration grace) {
        if (grace.compareTo(minGrace) < 0) {
            throw new IllegalArgumentException("grace must be at least " + minGrace.toSeconds() + " s");
        }
        long behind = lag.total();
        if (behind > 0) {
            return new Report(sale.id(), dryRun, behind, 0, List.of());
        }
        List<Action> actions = new ArrayList<>();
        Map<Long, Long> written = orders.ordersOfSale(sale.id());
        int pending = 0;
        if (!stock.keysPresent(sale.id())) {
            actions.add(new Action("REBUILT", null, null, "stock and window from the DB, "
                    + written.size() + " buyers from its orders"));
            if (!dryRun) {
                written.forEach((user, order) -> stock.markBuyer(sale.id(), user, order));
                stock.preheat(sale, sale.stockTotal() - written.size());
            }
        } else {
            Map<Long, Long> buyers = stock.buyerOrders(sale.id());
            long now = clock.millis();
            int released = 0;
            int marked = 0;
            for (var b : buyers.entrySet()) {
                if (written.containsKey(b.getKey())) {
                    continue;
                }
                long age = now - OrderIds.createdAt(b.getValue()).toEpochMilli();
                if (age < grace.toMillis()) {
                    pending++;
                    continue;
                }
                actions.add(new Action("RELEASED", b.getKey(), Long.toString(b.getValue()),
                        "reserved " + age / 1000 + " s ago, never written: its unit goes back"));
                released++;
                if (!dryRun) {
                    reserver.compensate(sale.id(), b.getKey(), b.getValue());
                }
            }
            for (var w : written.entrySet()) {
                if (!buyers.containsKey(w.getKey())) {
                    actions.add(new Action("MARKED", w.getKey(), Long.toString(w.getValue()),
                            "written order had no buyer mark in Redis"));
                    marked++;
                    if (!dryRun) {
                        stock.markBuyer(sale.id(), w.getKey(), w.getValue());
                    }
                }
            }
            if (dryRun) {
                // Each release gives its unit back by itself; what conserve.lua would still have to set:
                long expected = sale.stockTotal() - (buyers.size() - released + marked);
                Long remaining = stock.remaining(sale.id());
                if (remaining != null && remaining + released != expected) {
                    actions.add(new Action("STOCK_SET", null, null,
                            "remaining " + (remaining + released) + " -> " + expected));
                }
            } else {
                long[] change = stock.conserve(sale);
                if (change[0] != change[1]) {
                    actions.add(new Action("STOCK_SET", null, null, "remaining " + change[0] + " -> " + change[1]));
                }
            }
        }
        long[] db = sales.dbStockAndExpected(sale.id());
        if (db[0] != db[1]) {
            actions.add(new Action("DB_STOCK_SET", null, null, "db stock " + db[0] + " -> " + db[1]));
            if (!dryRun) {
                sales.repairDbStock(sale.id());
            }
        }
        return new Report(sale.id(), dryRun, 0, pending, actions);
    }
}
