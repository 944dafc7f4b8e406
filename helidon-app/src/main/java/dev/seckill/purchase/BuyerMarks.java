package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import org.redisson.api.RedissonClient;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The buyers' marks of a sale in Redis (userId -> orderId, written by purchase.lua; docs/redis.md): read by the order
 * lookup, the archive and reconcile, and put back by reconcile's repair. A lapsed buyer keeps the mark.
 */
public final class BuyerMarks {

    private final RedissonClient redis;

    public BuyerMarks(RedissonClient redis) {
        this.redis = redis;
    }

    /** Number of buyers recorded in Redis, lapsed ones included. */
    public long count(long saleId) {
        return redis.getMap(Keys.buyers(saleId)).size();
    }

    /** The order id recorded for a buyer in a sale, if the buyer has one. */
    public Optional<String> order(long saleId, long userId) {
        return Optional.ofNullable(redis.<String, String>getMap(Keys.buyers(saleId)).get(Long.toString(userId)));
    }

    /** Every buyer userId -> orderId (bounded by the sale's stock). */
    public Map<Long, Long> orders(long saleId) {
        Map<Long, Long> out = new HashMap<>();
        redis.<String, String>getMap(Keys.buyers(saleId)).readAllMap()
                .forEach((u, o) -> out.put(Long.parseLong(u), Long.parseLong(o)));
        return out;
    }

    /** Records a buyer's order id unless the buyer has one already; true when it wrote it. */
    public boolean put(long saleId, long userId, long orderId) {
        return redis.<String, String>getMap(Keys.buyers(saleId)).fastPutIfAbsent(Long.toString(userId),
                Long.toString(orderId));
    }
}
