package dev.seckill.order;

import java.util.Optional;

/** Where written orders are read from (the database; a fake in unit tests). */
@FunctionalInterface
public interface OrderSource {

    /** The order's row, with its state and payBy, whoever owns it. */
    Optional<Order> find(long orderId);
}
