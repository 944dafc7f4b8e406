package dev.seckill.sale;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.api.RedissonClient;

/** A sale's stock in Redis: preheat it, read what remains. */
public final class SaleStock {

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

    /** Remaining units, or null when the sale has no stock key (not preheated, or Redis lost it). */
    public Long remaining(long saleId) {
        Object v = redis.getBucket(Keys.stock(saleId)).get();
        return v == null ? null : Long.parseLong(v.toString());
    }

    /** Number of buyers recorded in Redis. */
    public long buyers(long saleId) {
        return redis.getMap(Keys.buyers(saleId)).size();
    }
}
