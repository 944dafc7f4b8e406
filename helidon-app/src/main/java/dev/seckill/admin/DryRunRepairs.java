package dev.seckill.admin;

import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.StockChange;

import java.util.Map;
import java.util.Set;

/**
 * The repairs of a dry run: nothing changes. It counts the releases, marks and returns it was asked for, so that
 * {@link #conserve} can say what conserve.lua would still have had to set after them.
 */
final class DryRunRepairs implements Repairs {

    private final SaleStock stock;
    private final BuyerMarks marks;
    private final RedisUnitLedger ledger;
    private int released;
    private int marked;
    private int returned;

    DryRunRepairs(SaleStock stock, BuyerMarks marks, RedisUnitLedger ledger) {
        this.stock = stock;
        this.marks = marks;
        this.ledger = ledger;
    }

    @Override
    public void rebuild(Sale sale, Map<Long, Long> written, Set<Long> expired) {
    }

    @Override
    public boolean release(long saleId, long userId, long orderId, long sentBefore) {
        released++;
        return true;
    }

    @Override
    public void dropUnsent(long saleId, long userId, long orderId) {
    }

    @Override
    public void mark(long saleId, long userId, long orderId) {
        marked++;
    }

    @Override
    public void returned(long saleId, long orderId) {
        returned++;
    }

    /** Each release gives its unit back by itself; what is left is the difference conserve.lua would set. */
    @Override
    public StockChange conserve(Sale sale) {
        Long remaining = stock.remaining(sale.id());
        if (remaining == null) {
            return new StockChange(-1, -1);
        }
        long live = marks.count(sale.id()) - released + marked - (ledger.returned(sale.id()) + returned);
        long after = Math.max(0, sale.stockTotal() - live);
        return new StockChange(remaining + released, after);
    }

    @Override
    public void repairDbStock(long saleId) {
    }
}
