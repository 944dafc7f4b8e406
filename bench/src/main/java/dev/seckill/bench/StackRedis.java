package dev.seckill.bench;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

/**
 * Redisson on the stack's Redis, built by the service's own factory: the one way the bench and the tests open it.
 * SECKILL_REDIS_NODES (a cluster stack's nodes) wins over the single server's address.
 */
public final class StackRedis {

    private StackRedis() {
    }

    public static RedissonClient connect(Stack stack) {
        return RedisClients.connect(stack.redisAddress(), System.getenv("SECKILL_REDIS_NODES"), stack.redisPassword());
    }

    /**
     * A client for reading one sale's keys directly, to shut down after use: on the cluster (SECKILL_REDIS_NODES set)
     * one of the master that serves the sale's slot now, else {@link #connect}. Not a cluster client: its lazy first
     * connect hung for good on a loaded machine when a node dropped the connection meanwhile (Redisson's event loop
     * waiting on itself).
     */
    public static RedissonClient forSale(Stack stack, long saleId) {
        String nodes = System.getenv("SECKILL_REDIS_NODES");
        if (nodes == null || nodes.isBlank()) {
            return connect(stack);
        }
        ClusterStack cluster = ClusterStack.get();
        String master = cluster.redis().masterOf(Keys.stock(saleId))
                .orElseThrow(() -> new IllegalStateException("no Redis master serves the slot of sale " + saleId));
        return RedisClients.connect("redis://127.0.0.1:" + cluster.port(master), null, stack.redisPassword());
    }
}
