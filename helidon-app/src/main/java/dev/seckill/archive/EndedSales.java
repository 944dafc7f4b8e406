package dev.seckill.archive;

import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.StockReserver;
import dev.seckill.sale.Sale;

/**
 * Answers SALE_ENDED for a sale past its end without asking Redis: the end is a fixed fact of the sale (purchase.lua
 * compares the same instant with its copy of it), and an archived sale no longer has the keys purchase.lua needs —
 * without this it would answer 503 for keys it calls missing. Sits in front of the breakers, so an ended sale
 * costs no dependency at all.
 */
public final class EndedSales implements StockReserver {

    private final StockReserver reserver;

    public EndedSales(StockReserver reserver) {
        this.reserver = reserver;
    }

    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        if (nowMillis >= sale.endsAt().toEpochMilli()) {
            return new PurchaseOutcome.SaleEnded();
        }
        return reserver.reserve(sale, userId, orderId, nowMillis);
    }
}
