package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import org.redisson.client.RedisException;

/**
 * The ledger in the sale's Redis keys: compensate.lua gives a unit back, unsent.lua and sent.lua keep the sale's
 * unsent hash (docs/redis.md). Each is one atomic script, so the record never disagrees with the buyer's mark.
 */
public final class RedisUnitLedger implements UnitLedger {

    private final ScriptRunner scripts;

    public RedisUnitLedger(ScriptRunner scripts) {
        this.scripts = scripts;
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
            return 1 == scripts.number(Script.UNSENT, Keys.unsentSend(saleId), Long.toString(userId), Long.toString(orderId),
                    Long.toString(sentAtMillis));
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
