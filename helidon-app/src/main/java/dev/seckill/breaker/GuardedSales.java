package dev.seckill.breaker;

import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Sale reads behind the database's breaker. A purchase of a sale this instance has cached never reads the database,
 * so it goes on selling while the database is down; only what must read it (an unknown sale, the list) is refused.
 */
public final class GuardedSales implements SaleSource {

    private final SaleSource sales;
    private final Breaker db;

    public GuardedSales(SaleSource sales, Breaker db) {
        this.sales = sales;
        this.db = db;
    }

    @Override
    public Optional<Sale> find(long id) {
        return db.call(() -> sales.find(id));
    }

    @Override
    public long maxId() {
        return db.call(sales::maxId);
    }

    @Override
    public List<Sale> current(Instant now) {
        return db.call(() -> sales.current(now));
    }

    @Override
    public List<Sale> since(long afterId, int limit) {
        return db.call(() -> sales.since(afterId, limit));
    }
}
