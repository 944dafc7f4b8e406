package dev.seckill.sale;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.api.RedissonClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A sale's stock and buyers in Redis: preheat them, read them, and the repairs reconcile makes. */
public final class SaleStock implements RemainingStock {

    private final RedissonClient redis;
    private final ScriptRunner scripts;

    public SaleStock(RedissonClient redis, ScriptRunner scripts) {
        this.redis = redis;
        this.scripts = scripts;
    }

    /** Puts stock and window into Redis unless they are there already; true when it wrote them. */
    public boolean preheat(Sale sale, int stock) {
        return scripts.number(Script.PREHEAT, Keys.preheat(sale.id()), Integer.toString(stock),
                Long.toString(sale.startsAt().toEpochMilli()), Long.toString(sale.endsAt().toEpochMilli())) == 1;
    }

    @Override
    public Long remaining(long saleId) {
        Object v = redis.getBucket(Keys.stock(saleId)).get();
        return v == null ? null : Long.parseLong(v.toString());
    }

    /** Number of buyers recorded in Redis. */
    public long buyers(long saleId) {
        return redis.getMap(Keys.buyers(saleId)).size();
    }

    /** The order id recorded for a buyer in a sale, if the buyer has one. */
    public Optional<String> buyerOrder(long saleId, long userId) {
        return Optional.ofNullable(redis.<String, String>getMap(Keys.buyers(saleId)).get(Long.toString(userId)));
    }

    /** Every buyer userId -> orderId (bounded by the sale's stock). */
    public Map<Long, Long> buyerOrders(long saleId) {
        Map<Long, Long> out = new HashMap<>();
        redis.<String, String>getMap(Keys.buyers(saleId)).readAllMap()
                .forEach((u, o) -> out.put(Long.parseLong(u), Long.parseLong(o)));
        return out;
    }

    /** True when both the stock and the window are in Redis (purchases can run). */
    public boolean keysPresent(long saleId) {
        return redis.getKeys().countExists(Keys.stock(saleId), Keys.meta(saleId)) == 2;
    }

    /** Records a buyer's order id unless the buyer has one already; true when it wrote it. */
    public boolean markBuyer(long saleId, long userId, long orderId) {
        return redis.<String, String>getMap(Keys.buyers(saleId)).fastPutIfAbsent(Long.toString(userId), Long.toString(orderId));
    }

    /**
     * Sets remaining = stock_total - buyers, atomically with purchases (conserve.lua).
     *
     * @return remaining before and after; both -1 when the stock key is absent (the sale must be rebuilt instead)
     */
    public StockChange conserve(Sale sale) {
        List<Object> r = scripts.list(Script.CONSERVE, Keys.conserve(sale.id()), Integer.toString(sale.stockTotal()));
        return new StockChange(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue());
    }
}
