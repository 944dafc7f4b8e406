package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import dev.seckill.sale.UnitReturn;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RScriptAsync;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ledger in the sale's Redis keys: compensate.lua gives a reservation's unit back, release.lua an expired order's
 * (once per order, into the returned set), unsent.lua and sent.lua keep the sale's unsent hash (docs/redis.md). Each
 * is one atomic script, so the record never disagrees with the buyer's mark. Reconcile reads the returned set and the
 * unsent hash here, and records a unit it finds accounted for.
 */
public final class RedisUnitLedger implements UnitLedger {

    private final RedissonClient redis;
    private final ScriptRunner scripts;
    private final ReplicaAcks acks;

    /** @param acks the replicas that must confirm a record of a failed send before it counts as held */
    public RedisUnitLedger(RedissonClient redis, ScriptRunner scripts, ReplicaAcks acks) {
        this.redis = redis;
        this.scripts = scripts;
        this.acks = acks;
    }

    @Override
    public long compensate(long saleId, long userId, long orderId, long sentBeforeMillis) {
        try {
            return scripts.number(Script.COMPENSATE, Keys.compensate(saleId), Long.toString(userId),
                    Long.toString(orderId), Long.toString(sentBeforeMillis));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run compensate.lua for sale " + saleId, e);
        }
    }

    @Override
    public boolean unsent(long saleId, long userId, long orderId, long sentAtMillis) {
        try {
            if (!acks.wanted()) {
                return 1 == scripts.number(Script.UNSENT, Keys.unsentSend(saleId), Long.toString(userId),
                        Long.toString(orderId), Long.toString(sentAtMillis));
            }
            Synced r = scripts.numberSynced(Script.UNSENT, Keys.unsentSend(saleId), acks, Long.toString(userId),
                    Long.toString(orderId), Long.toString(sentAtMillis));
            return r.replies().getFirst() == 1 && acks.satisfiedBy(r.replicas());
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run unsent.lua for sale " + saleId, e);
        }
    }

    @Override
    public void sent(long saleId, long userId, long orderId) {
        try {
            scripts.number(Script.SENT, Keys.sent(saleId), Long.toString(userId), Long.toString(orderId));
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to run sent.lua for sale " + saleId, e);
        }
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
}
