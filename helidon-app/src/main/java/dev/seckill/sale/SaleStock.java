package dev.seckill.sale;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.util.List;

/**
 * A sale's stock and lifecycle in Redis: preheat, the remaining units, conserve (reconcile's repair of the count),
 * and archiving. The buyers' marks are {@link dev.seckill.purchase.BuyerMarks}', the units coming back the
 * {@link dev.seckill.purchase.RedisUnitLedger}'s.
 */
public final class SaleStock implements RemainingStock {

    /** The field of a sale's window hash that marks it archived (epoch ms); docs/redis.md. */
    static final String ARCHIVED = "archived";

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

    /** When the sale was archived (epoch ms), or null: it was not, or Redis lost its window with its other keys. */
    public Long archivedAt(long saleId) {
        String at = redis.<String, String>getMap(Keys.meta(saleId)).get(ARCHIVED);
        return at == null ? null : Long.parseLong(at);
    }

    /**
     * Archives a settled sale: its window hash keeps the time of archiving (a tombstone of a few bytes that tells
     * "archived" from "lost", and keeps preheat.lua from ever putting stock back), and its stock, buyers and
     * returned keys (and a waiting room's) get an expiry. Written in that order and idempotent (EXPIRE NX never pushes an expiry back), so
     * a pass that dies half-way is finished by the next one.
     */
    public void archive(long saleId, long nowMillis, Duration linger) {
        redis.<String, String>getMap(Keys.meta(saleId)).putIfAbsent(ARCHIVED, Long.toString(nowMillis));
        redis.getBucket(Keys.stock(saleId)).expireIfNotSet(linger);
        redis.getMap(Keys.buyers(saleId)).expireIfNotSet(linger);
        redis.getSet(Keys.returned(saleId)).expireIfNotSet(linger);
        for (String line : new String[] {Keys.line(saleId), Keys.linePlaces(saleId), Keys.linePrequeue(saleId),
                Keys.lineSteps(saleId)}) {
            redis.getBucket(line).expireIfNotSet(linger);
        }
    }

    /** True when both the stock and the window are in Redis (purchases can run). */
    public boolean keysPresent(long saleId) {
        return redis.getKeys().countExists(Keys.stock(saleId), Keys.meta(saleId)) == 2;
    }

    /**
     * Sets remaining = stock_total - (buyers - returned), atomically with purchases and releases (conserve.lua).
     *
     * @return remaining before and after; both -1 when the stock key is absent (the sale must be rebuilt instead)
     */
    public StockChange conserve(Sale sale) {
        List<Object> r = scripts.list(Script.CONSERVE, Keys.conserve(sale.id()), Integer.toString(sale.stockTotal()));
        return new StockChange(((Number) r.get(0)).longValue(), ((Number) r.get(1)).longValue());
    }
}
