package dev.seckill.admin;

import dev.seckill.order.OrderRepository;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleRepository;
import dev.seckill.sale.SaleStock;

/** Reads a sale's consistency view from Redis, the database and the writer's lag. */
public final class SaleAudit {

    private final SaleRepository sales;
    private final SaleStock stock;
    private final OrderRepository orders;
    private final ConsumerLag lag;

    public SaleAudit(SaleRepository sales, SaleStock stock, OrderRepository orders, ConsumerLag lag) {
        this.sales = sales;
        this.stock = stock;
        this.orders = orders;
        this.lag = lag;
    }

    public SaleStats stats(Sale sale) {
        return new SaleStats(sale.id(), sale.stockTotal(), sales.dbStock(sale.id()).actual(),
                stock.remaining(sale.id()), stock.buyers(sale.id()), stock.returned(sale.id()),
                orders.countsForSale(sale.id()), orders.unitsOwed(sale.id()), lag.total(),
                stock.archivedAt(sale.id()) != null);
    }
}
