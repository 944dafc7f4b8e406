package dev.seckill.redis;

import org.redisson.api.RedissonClient;

import java.util.Set;

/**
 * Which Redis master serves a sale now: the master of the hash slot of the sale's tag (every key of a sale shares
 * it, see {@link Keys}), as the client's slot map has it. A single server is one master for every sale.
 */
public interface ShardMap {

    /** Named for a sale whose slot has no known master yet (the client has not connected). */
    String UNRESOLVED = "unresolved";

    /** The master (host:port) that serves this sale's slot now, or {@link #UNRESOLVED}. */
    String masterOf(long saleId);

    /** The masters that serve slots now; {@link #UNRESOLVED} alone while none is known. */
    Set<String> masters();

    /** The client's own slot map: no command is sent, the map is the one it routes every call by. */
    static ShardMap of(RedissonClient redis) {
        return new RedissonShardMap(redis);
    }
}
