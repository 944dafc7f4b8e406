package dev.seckill.redis;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.connection.ConnectionManager;
import org.redisson.connection.MasterSlaveEntry;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * {@link ShardMap} read from Redisson's connection manager, the map it routes every command by: in a cluster it is
 * refreshed from CLUSTER SLOTS every scan interval (1 s, see {@link RedisClients}), so a promoted replica shows as
 * the new master of its slots as soon as the client sends them there. Redisson's internal API (its slot
 * calculation and entries): no public call answers "which master serves this key" without a round trip, and one
 * per purchase to learn which breaker to consult would cost what the breaker is there to save.
 */
final class RedissonShardMap implements ShardMap {

    private final ConnectionManager manager;

    RedissonShardMap(RedissonClient redis) {
        this.manager = ((Redisson) redis).getCommandExecutor().getConnectionManager();
    }

    @Override
    public String masterOf(long saleId) {
        MasterSlaveEntry entry = manager.getWriteEntry(manager.calcSlot(Keys.stock(saleId)));
        return entry == null || entry.getClient() == null ? UNRESOLVED : address(entry);
    }

    @Override
    public Set<String> masters() {
        Collection<MasterSlaveEntry> entries = manager.getEntrySet();
        Set<String> masters = new HashSet<>();
        for (MasterSlaveEntry e : entries) {
            if (e.getClient() != null) {
                masters.add(address(e));
            }
        }
        return masters.isEmpty() ? Set.of(UNRESOLVED) : masters;
    }

    private static String address(MasterSlaveEntry entry) {
        InetSocketAddress a = entry.getClient().getAddr();
        return a.getHostString() + ":" + a.getPort();
    }
}
