package dev.seckill.system.cluster;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.system.reliability.FaultScenario;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.RedisCluster;
import org.redisson.api.RedissonClient;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster as a place for the fault scenarios: crowds through the load balancer, operators on the first service's
 * internal listener, and a sale's Redis state read directly from every master: its keys from the master of its slot,
 * and no copy of that slot's keys on another master.
 */
final class ClusterSite {

    private ClusterSite() {
    }

    static FaultScenario.Site of(ClusterStack cluster) {
        return new FaultScenario.Site(cluster, saleId -> masterClient(cluster, saleId),
                saleId -> onlyOnItsMaster(cluster, saleId), () -> cluster.seckill(ClusterStack.NODE_OP, "up"));
    }

    /** Redisson on the node that masters the sale's slot now (a single-server client: the slot's keys are there). */
    static RedissonClient masterClient(ClusterStack cluster, long saleId) {
        String master = cluster.redis().masterOf(Keys.stock(saleId))
                .orElseThrow(() -> new AssertionError("no master serves the slot of sale " + saleId));
        return RedisClients.connect("redis://127.0.0.1:" + cluster.port(master), null, cluster.redisPassword());
    }

    /** Violations: the slot's master lacks the sale's keys, or another master holds keys of that slot. */
    static List<String> onlyOnItsMaster(ClusterStack cluster, long saleId) {
        RedisCluster redis = cluster.redis();
        String key = Keys.stock(saleId);
        String owner = redis.masterOf(key).orElse("none");
        List<String> out = new ArrayList<>();
        for (String master : redis.masters()) {
            long keys = redis.keysInSlot(master, key);
            if (master.equals(owner) && keys == 0) {
                out.add(master + " masters the slot of sale " + saleId + " but holds none of its keys");
            } else if (!master.equals(owner) && keys > 0) {
                out.add(master + " holds " + keys + " keys of the slot of sale " + saleId + ", mastered by " + owner);
            }
        }
        return out;
    }
}
