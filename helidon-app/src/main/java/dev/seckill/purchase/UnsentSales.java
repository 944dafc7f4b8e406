package dev.seckill.purchase;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sales in which this instance has met orders whose send to Kafka failed: those it recorded itself, and those
 * whose held units it answered (an entry another instance left). The {@link Resender} looks only at these, so an
 * idle instance reads nothing.
 */
public final class UnsentSales {

    private final Set<Long> sales = ConcurrentHashMap.newKeySet();

    public void add(long saleId) {
        sales.add(saleId);
    }

    /** Forgets a sale whose unsent entries are all gone; a later failed send adds it again. */
    public void remove(long saleId) {
        sales.remove(saleId);
    }

    public List<Long> snapshot() {
        return List.copyOf(sales);
    }
}
