package dev.seckill.order;

import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleSource;

import java.time.Clock;
import java.util.Optional;

/**
 * Finds an order that is reserved in Redis but not yet written: the sale in whose buyers the order id is recorded
 * for its user, among the recent sales (few run at once).
 */
public final class QueuedOrders {

    /** A buyer's recorded order id in one sale (Redis buyers through BuyerMarks; a fake in unit tests). */
    @FunctionalInterface
    public interface BuyerMarks {
        Optional<String> orderOf(long saleId, long userId);
    }

    private final SaleSource sales;
    private final BuyerMarks marks;
    private final Clock clock;

    public QueuedOrders(SaleSource sales, BuyerMarks marks, Clock clock) {
        this.sales = sales;
        this.marks = marks;
        this.clock = clock;
    }

    /** The sale in which {@code orderId} is this user's reservation, if it is one. */
    public Optional<Sale> saleOf(long orderId, long userId) {
        String id = Long.toString(orderId);
        return sales.recent(clock.instant()).stream()
                .filter(s -> marks.orderOf(s.id(), userId).filter(id::equals).isPresent())
                .findFirst();
    }
}
