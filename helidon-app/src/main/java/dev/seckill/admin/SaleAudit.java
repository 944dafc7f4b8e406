package dev.seckill.admin;

import dev.seckill.order.OrderRepository;
import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;

/** Reads a sale's consistency view from Redis, the database and the writer's lag. */
public final class SaleAudit {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final BuyerMarks marks;
    private final RedisUnitLedger ledger;
    private final OrderRepository orders;
    private final ConsumerLag lag;

    public SaleAudit(SaleRepository sales, SaleStock stock, BuyerMarks marks, RedisUnitLedger ledger,
                     OrderRepository orders, ConsumerLag lag) {
        this.sales = sales;
        this.stock = stock;
        this.marks = marks;
        this.ledger = ledger;
        this.orders = orders;
        this.lag = lag;
    }

    /**
     * One bulk read per set, whatever the sale's size: the buyers hash and the returned set from Redis, the rows in
     * one query from the database (no lookup per buyer).
     */
    public SaleStats stats(Sale sale) {
        long id = sale.id();
        return new SaleStats(id, sale.stockTotal(), sales.dbStock(id).actual(), stock.remaining(id),
                marks.orders(id), ledger.returnedOrders(id), orders.rowsOfSale(id), orders.unitsOwed(id),
                lag.total(), stock.archivedAt(id) != null);
    }
}
