package dev.seckill.sale;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A sale's stock and buyers in Redis: preheat them, read them, and the repairs reconcile makes. */
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

    /** Number of buyers recorded in Redis, lapsed ones included (they keep their mark). */
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

    /**
     * Every buyer userId -> "orderId:ms" whose order's send to Kafka failed (the unsent hash, at most one per buyer;
     * the purchase package reads the values).
     */
    public Map<Long, String> unsentSends(long saleId) {
        Map<Long, String> out = new HashMap<>();
        redis.<String, String>getMap(Keys.unsent(saleId)).readAllMap().forEach((u, v) -> out.put(Long.parseLong(u), v));
        return out;
    }

    /**
     * Gives back the unit of an expired order, at most once per order id (release.lua); the buyer keeps the mark.
     */
    public UnitReturn release(long saleId, long userId, long orderId) {
        return UnitReturn.of(scripts.number(Script.RELEASE, Keys.release(saleId), Long.toString(userId),
                Long.toString(orderId)));
    }

    /**
     * Gives back the units of many expired orders in one round trip: the release.lua calls go to Redis as one
     * pipelined batch, so a mass expiry costs Redis the scripts' work, not thousands of round trips. When the batch
     * fails (Redis forgot the script after a restart, or a connection broke) the orders are released one by one,
     * which reloads the script; a release the batch did run answers ALREADY then, so none is done twice.
     */
    public List<UnitReturn> release(List<UnitReturn.Request> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        try {
            RBatch batch = redis.createBatch(BatchOptions.defaults());
            RScriptAsync script = batch.getScript(StringCodec.INSTANCE);
            List<RFuture<Long>> replies = new ArrayList<>(requests.size());
            for (UnitReturn.Request r : requests) {
                replies.add(script.evalShaAsync(RScript.Mode.READ_WRITE, Script.RELEASE.sha(), RScript.ReturnType.LONG,
                        Keys.release(r.saleId()), Long.toString(r.userId()), Long.toString(r.orderId())));
            }
            batch.execute();
            return replies.stream().map(f -> UnitReturn.of(f.toCompletableFuture().join())).toList();
        } catch (RedisException e) {
            return requests.stream().map(r -> release(r.saleId(), r.userId(), r.orderId())).toList();
        }
    }

    /** The order ids whose unit came back (bounded by the sale's buyers). */
    public Set<Long> returnedOrders(long saleId) {
        Set<Long> out = new HashSet<>();
        redis.<String>getSet(Keys.returned(saleId)).readAll().forEach(o -> out.add(Long.parseLong(o)));
        return out;
    }

    /** How many orders gave their unit back. */
    public long returned(long saleId) {
        return redis.getSet(Keys.returned(saleId)).size();
    }

    /**
     * Records that an expired order's unit is accounted for, without touching the stock: reconcile does this for an
     * EXPIRED order the returned set lacks, then conserve.lua sets the stock from the marks and the returned set.
     */
    public boolean markReturned(long saleId, long orderId) {
        return redis.<String>getSet(Keys.returned(saleId)).add(Long.toString(orderId));
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

    /** Records a buyer's order id unless the buyer has one already; true when it wrote it. */
    public boolean markBuyer(long saleId, long userId, long orderId) {
        return redis.<String, String>getMap(Keys.buyers(saleId)).fastPutIfAbsent(Long.toString(userId), Long.toString(orderId));
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
