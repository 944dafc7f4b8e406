package dev.seckill.purchase;

import dev.seckill.sale.Sale;

/** One buyer's purchase attempt, as {@link RedisStockReserver} decides it: alone, or in one call with its sale's. */
public record Attempt(Sale sale, long userId, long orderId, long nowMillis) {
}
