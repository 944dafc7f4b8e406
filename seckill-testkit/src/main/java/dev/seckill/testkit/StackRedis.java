package dev.seckill.testkit;

/**
 * Redis of the running stack, opened the way the service opens it: the test kit says where Redis is (the single
 * server, the cluster's seed nodes in SECKILL_REDIS_NODES, or the master that serves a key's slot now) and with which
 * password; the client is built by the caller's factory, the service's own ({@code RedisClients::connect}), so tests
 * and the bench use its codec and settings and the test kit does not depend on the service.
 */
public final class StackRedis {

    /** The service's factory: {@code RedisClients.connect(address, nodes, password)}. */
    @FunctionalInterface
    public interface Connector<C> {

        /**
         * @param address  the single server, {@code redis://host:port}; ignored when {@code nodes} is not blank
         * @param nodes    Redis Cluster seed nodes, comma-separated; null: the single server
         * @param password empty: no AUTH
         */
        C connect(String address, String nodes, String password);
    }

    private StackRedis() {
    }

    /** The stack's Redis: its single server, or its cluster when SECKILL_REDIS_NODES names one (a cluster client). */
    public static <C> C connect(Stack stack, Connector<C> connector) {
        return connector.connect(stack.redisAddress(), System.getenv("SECKILL_REDIS_NODES"), stack.redisPassword());
    }

    /** {@link #connect(Stack, Connector)} on {@link Stack#get()}. */
    public static <C> C connect(Connector<C> connector) {
        return connect(Stack.get(), connector);
    }

    /**
     * A client for reading the keys of one hash slot directly, to shut down after use: on the cluster
     * (SECKILL_REDIS_NODES set) one of the master that serves {@code key}'s slot now, else {@link #connect}. Not a
     * cluster client: its lazy first connect hung for good on a loaded machine when a node dropped the connection
     * meanwhile (Redisson's event loop waiting on itself).
     */
    public static <C> C forKey(Stack stack, String key, Connector<C> connector) {
        String nodes = System.getenv("SECKILL_REDIS_NODES");
        if (nodes == null || nodes.isBlank()) {
            return connect(stack, connector);
        }
        return master(ClusterStack.get(), key, connector);
    }

    /** A single-server client of the cluster's node that masters {@code key}'s slot now. */
    public static <C> C master(ClusterStack cluster, String key, Connector<C> connector) {
        String master = cluster.redis().masterOf(key)
                .orElseThrow(() -> new IllegalStateException("no Redis master serves the slot of " + key));
        return node(cluster, master, connector);
    }

    /** A single-server client of the cluster's node named {@code node} (redis-1 ...). */
    public static <C> C node(ClusterStack cluster, String node, Connector<C> connector) {
        return connector.connect("redis://127.0.0.1:" + cluster.port(node), null, cluster.redisPassword());
    }
}
