package dev.seckill.check;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.RedisCluster;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/** What MySQL and every Redis master hold for the run's sales, read directly (never through the service). */
public record FinalState(List<FinalSale> sales) {

    public Optional<FinalSale> sale(long saleId) {
        return sales.stream().filter(s -> s.saleId() == saleId).findFirst();
    }

    /**
     * Reads the sales' rows and keys on the cluster (healed, reconciled, the writer caught up): each sale's keys from
     * the master serving their slot, after a look at every other master for keys left in that slot.
     */
    public static FinalState read(ClusterStack cluster, List<Long> saleIds) {
        RedisCluster redis = cluster.redis();
        List<String> masters = redis.masters();
        // One client per master, opened when a sale's slot first needs it.
        Map<String, RedissonClient> clients = new HashMap<>();
        try (Connection db = cluster.db()) {
            return read(db, saleIds, saleId -> {
                String key = Keys.stock(saleId);
                String master = redis.masterOf(key).orElseThrow(() -> new IllegalStateException(
                        "no Redis master serves the slot of " + key + ": is the cluster healed?"));
                List<String> strays = masters.stream().filter(n -> !n.equals(master))
                        .filter(n -> redis.keysInSlot(n, key) > 0).toList();
                RedissonClient client = clients.computeIfAbsent(master, n -> StackRedis.node(cluster, n,
                        RedisClients::connect));
                return SaleKeys.read(saleId, client, master, strays);
            });
        } catch (SQLException e) {
            throw new IllegalStateException("failed to read the cluster's MySQL: " + e.getMessage(), e);
        } finally {
            clients.values().forEach(RedissonClient::shutdown);
        }
    }

    /** The same from the single stack ({@code bin/seckill up}), for tests of the checker on a real stack. */
    public static FinalState read(Stack stack, List<Long> saleIds) {
        RedissonClient redis = StackRedis.connect(stack, RedisClients::connect);
        try (Connection db = stack.db()) {
            return read(db, redis, stack.redisAddress(), saleIds);
        } catch (SQLException e) {
            throw new IllegalStateException("failed to read the stack's MySQL: " + e.getMessage(), e);
        } finally {
            redis.shutdown();
        }
    }

    /**
     * The same from a connection and a client of the Redis server that holds the sales' keys, both the caller's (the
     * bench, the fault tests) and left open; {@code node} names that server in the findings. The session's time zone
     * is set to UTC ({@code payBy} is derived as the service stores it).
     */
    public static FinalState read(Connection db, RedissonClient redis, String node, List<Long> saleIds)
            throws SQLException {
        return read(db, saleIds, saleId -> SaleKeys.read(saleId, redis, node, List.of()));
    }

    private static FinalState read(Connection db, List<Long> saleIds, LongFunction<RedisSale> keys)
            throws SQLException {
        MysqlSale rows = new MysqlSale(db);
        List<FinalSale> out = new ArrayList<>();
        for (long saleId : saleIds.stream().distinct().sorted().toList()) {
            MysqlSale.Rows r = rows.read(saleId);
            out.add(new FinalSale(saleId, r.found(), r.stockTotal(), r.stock(), r.orders(), r.unitReturns(),
                    keys.apply(saleId)));
        }
        return new FinalState(out);
    }
}
