package dev.seckill.redis;

import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.resolver.DefaultAddressResolverGroup;
import org.redisson.client.RedisClient;
import org.redisson.client.RedisClientConfig;
import org.redisson.client.RedisConnection;
import org.redisson.client.RedisMovedException;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.cluster.ClusterNodeInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One plain connection to each live node of a Redis Cluster, masters and replicas apart: what the cluster client
 * hides (which replica holds a key, one master's script cache). The topology is read once, from the first seed.
 */
final class ClusterNodes implements AutoCloseable {

    /** One node and its connection. */
    record Node(String address, RedisConnection connection) {

        /** Runs a command; a node that does not serve the key answers MOVED, which is an empty result here. */
        <T> Optional<T> read(RedisCommand<?> command, Object... args) {
            try {
                return Optional.ofNullable(connection.sync(StringCodec.INSTANCE, command, args));
            } catch (RedisMovedException e) {
                return Optional.empty();
            }
        }
    }

    // Plain NIO and the JDK's resolver: the low-level client's defaults reach for native transports (epoll) that
    // are not on the classpath.
    private final NioEventLoopGroup group = new NioEventLoopGroup(1);
    private final List<RedisClient> clients = new ArrayList<>();
    private final List<Node> masters = new ArrayList<>();
    private final List<Node> replicas = new ArrayList<>();

    /**
     * The cluster's seed nodes from SECKILL_REDIS_NODES, which the test command's cluster phase sets; the tests tagged
     * {@code cluster} run only there (the failsafe groups), so an empty one fails them instead of letting them skip.
     */
    static String seeds() {
        String nodes = System.getenv("SECKILL_REDIS_NODES");
        if (nodes == null || nodes.isBlank()) {
            throw new IllegalStateException("SECKILL_REDIS_NODES is empty: a test tagged cluster runs on the test "
                    + "cluster (bin/seckill test's cluster phase sets it to the cluster's Redis nodes)");
        }
        return nodes;
    }

    /** @param seeds comma-separated {@code host:port} or {@code redis://host:port} */
    ClusterNodes(String seeds, String password) {
        RedisConnection seed = connect(RedisSettings.nodes(seeds).get(0), password);
        List<ClusterNodeInfo> topology = seed.sync(RedisCommands.REDIS_CLUSTER_NODES);
        for (ClusterNodeInfo n : topology) {
            if (n.containsFlag(ClusterNodeInfo.Flag.FAIL) || n.containsFlag(ClusterNodeInfo.Flag.NOADDR)) {
                continue;
            }
            String address = n.getAddress().toString();
            RedisConnection c = connect(address, password);
            if (n.containsFlag(ClusterNodeInfo.Flag.MASTER)) {
                masters.add(new Node(address, c));
            } else {
                // A replica answers reads of its master's slots only after READONLY (else it redirects them).
                c.sync(RedisCommands.READONLY);
                replicas.add(new Node(address, c));
            }
        }
    }

    private RedisConnection connect(String address, String password) {
        RedisClientConfig cfg = new RedisClientConfig().setAddress(address).setGroup(group)
                .setSocketChannelClass(NioSocketChannel.class).setResolverGroup(DefaultAddressResolverGroup.INSTANCE);
        if (!password.isEmpty()) {
            cfg.setPassword(password);
        }
        RedisClient client = RedisClient.create(cfg);
        clients.add(client);
        return client.connect();
    }

    List<Node> masters() {
        return masters;
    }

    List<Node> replicas() {
        return replicas;
    }

    /** The master that serves {@code key}: the only one that answers for it instead of redirecting. */
    Node masterOf(String key) {
        return masters.stream().filter(m -> m.read(RedisCommands.EXISTS_LONG, key).isPresent()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no master serves " + key));
    }

    /** The replicas that serve {@code key} (its master's). */
    List<Node> replicasOf(String key) {
        return replicas.stream().filter(r -> r.read(RedisCommands.EXISTS_LONG, key).isPresent()).toList();
    }

    @Override
    public void close() {
        clients.forEach(RedisClient::shutdown);
        group.shutdownGracefully();
    }
}
