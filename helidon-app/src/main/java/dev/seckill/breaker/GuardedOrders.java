package dev.seckill.breaker;

import dev.seckill.order.Order;
import dev.seckill.order.OrderSource;

import java.util.Optional;

/** Written-order reads (order status, "my order", pay) behind the database's breaker. */
public final class GuardedOrders implements OrderSource {

    private final OrderSource orders;
    private final Breaker db;

    public GuardedOrders(OrderSource orders, Breaker db) {
        this.orders = orders;
        this.db = db;
    }

    @Override
    public Optional<Order> find(long orderId) {
        return db.call(() -> orders.find(orderId));
    }

}
