package dev.seckill.order;

import java.util.Optional;

/** Where written orders are read from (the database; a fake in unit tests). */
@FunctionalInterface
public interface OrderSource {

    Optional<WrittenOrder> find(long orderId);
}
