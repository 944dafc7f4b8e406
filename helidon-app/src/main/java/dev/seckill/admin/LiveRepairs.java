package dev.seckill.admin;

import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.purchase.Reopener;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.StockChange;

import java.util.Map;
import java.util.Set;

/**
 * The repairs of a real reconcile run, on Redis and the database. A repair that gives a sale without stock a unit
 * back reopens it, here and at every edge.
 */
final class LiveRepairs implements Repairs {

    private final SaleStock stock;
    private final BuyerMarks marks;
    private final RedisUnitLedger ledger;
    private final SaleRepository sales;
    private final Reopener reopener;

    LiveRepairs(SaleStock stock, BuyerMarks marks, RedisUnitLedger ledger, SaleRepository sales, Reopener reopener) {
        this.stock = stock;
        this.marks = marks;
        this.ledger = ledger;
        this.sales = sales;
        this.reopener = reopener;
    }

    @Override
    public void rebuild(Sale sale, Map<Long, Long> written, Set<Long> expired) {
        // Buyers first: once the stock key is back purchases run, and earlier buyers must already be known. Expired
        // orders are counted as returned before the stock exists, so a pending release.lua finds them (ALREADY).
        written.forEach((user, order) -> marks.put(sale.id(), user, order));
        expired.forEach(order -> ledger.markReturned(sale.id(), order));
        stock.preheat(sale, sale.stockTotal() - (written.size() - expired.size()));
    }

    @Override
    public boolean release(long saleId, long userId, long orderId, long sentBefore) {
        long remaining = ledger.compensate(saleId, userId, orderId, sentBefore);
        reopener.unitReturned(saleId, remaining);
        return remaining >= 1;
    }

    @Override
    public void dropUnsent(long saleId, long userId, long orderId) {
        ledger.sent(saleId, userId, orderId);
    }

    @Override
    public void mark(long saleId, long userId, long orderId) {
        marks.put(saleId, userId, orderId);
    }

    @Override
    public void returned(long saleId, long orderId) {
        ledger.markReturned(saleId, orderId);
    }

    @Override
    public StockChange conserve(Sale sale) {
        StockChange change = stock.conserve(sale);
        if (change.before() == 0 && change.after() > 0) {
            reopener.reopen(sale.id());
        }
        return change;
    }

    @Override
    public void repairDbStock(long saleId) {
        sales.repairDbStock(saleId);
    }
}
