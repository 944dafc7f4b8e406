package dev.seckill.order;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Written orders and their payments in memory, deciding a pay as the database does: only a CONFIRMED order whose
 * payBy has not passed on the clock becomes PAID. {@link #beforeDecision} lets a test act in the gap between the
 * charge and the decision (an expiry or a concurrent pay).
 */
public final class FakePayments implements PaymentStore, OrderSource {

    public final Map<Long, Order> orders = new ConcurrentHashMap<>();
    public final Map<Long, PaymentRecord> payments = new ConcurrentHashMap<>();
    /** The request id each PAID order's event carries. */
    public final Map<Long, String> paidBy = new ConcurrentHashMap<>();
    public Runnable beforeDecision = () -> { };
    private final Clock clock;

    public FakePayments(Clock clock) {
        this.clock = clock;
    }

    /** A CONFIRMED order with {@code secondsLeft} to pay. */
    public Order confirmed(long orderId, long saleId, long userId, long secondsLeft) {
        Order o = new Order(orderId, saleId, userId, 1999, OrderState.CONFIRMED,
                clock.instant().plusSeconds(secondsLeft), null);
        orders.put(orderId, o);
        return o;
    }

    /** What the expiry does to a lapsed order. */
    public void expire(long orderId) {
        orders.computeIfPresent(orderId, (id, o) -> o.state() == OrderState.CONFIRMED
                ? new Order(id, o.saleId(), o.userId(), o.priceCents(), OrderState.EXPIRED, o.payBy(), null) : o);
    }

    @Override
    public Optional<Order> find(long orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }

    @Override
    public synchronized boolean recordPaid(Order order, PaymentRecord payment, String requestId) {
        beforeDecision.run();
        long orderId = order.orderId();
        long userId = order.userId();
        Order o = orders.get(orderId);
        Instant now = clock.instant();
        if (o == null || o.userId() != userId || o.state() != OrderState.CONFIRMED || now.isAfter(order.payBy())) {
            return false;
        }
        orders.put(orderId, new Order(orderId, o.saleId(), userId, o.priceCents(), OrderState.PAID, o.payBy(), now));
        payments.put(orderId, payment);
        paidBy.put(orderId, requestId);
        return true;
    }

    @Override
    public Optional<PaymentRecord> payment(long orderId) {
        return Optional.ofNullable(payments.get(orderId));
    }
}
