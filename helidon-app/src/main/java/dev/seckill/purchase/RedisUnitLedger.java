package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import org.redisson.client.RedisException;

/**
 * The ledger in the sale's Redis keys: compensate.lua gives a unit back, unsent.lua and sent.lua keep the sale's
 * unsent hash (docs/redis.md). Each is one atomic script, so the record never disagrees with the buyer's mark.
 */
public final class RedisUnitLedger implements UnitLedger {

    private final ScriptRunner scripts;
    private final ReplicaAcks acks;

    /** @param acks the replicas that must confirm a record of a failed send before it counts as held */
    public RedisUnitLedger(ScriptRunner scripts, ReplicaAcks acks) {
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
}
