package dev.seckill.purchase;

import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * In-process sold-out flags: once Redis said SOLD_OUT for a sale, this instance answers SOLD_OUT itself for a
 * short time instead of calling Redis. The flag expires (a compensated purchase can give a unit back) and is
 * cleared at once when this instance sees stock come back. Per instance; staleness is bounded by the TTL.
 */
public final class SoldOutFlags {

    private final Clock clock;
    private final long ttlMillis;
    private final ConcurrentMap<Long, Long> until = new ConcurrentHashMap<>();

    public SoldOutFlags(Clock clock, long ttlMillis) {
        this.clock = clock;
        this.ttlMillis = ttlMillis;
    }

    public boolean isSoldOut(long saleId) {
        Long t = until.get(saleId);
        if (t == null) {
            return false;
        }
        if (clock.millis() < t) {
            return true;
        }
        until.remove(saleId, t);
        return false;
    }

    public void markSoldOut(long saleId) {
        until.put(saleId, clock.millis() + ttlMillis);
    }

    public void clear(long saleId) {
        until.remove(saleId);
    }
}
