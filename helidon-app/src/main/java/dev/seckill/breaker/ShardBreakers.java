package dev.seckill.breaker;

import dev.seckill.redis.ShardMap;

import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Redis's circuit breakers, one per shard: the breaker of a sale is the breaker of the master that serves the sale's
 * hash slot now ({@link ShardMap}). A shard's failures are every sale's on it, so they open its breaker for all of
 * them at once, while the other shards' sales sell on; a single Redis is one shard, so one breaker.
 *
 * <p>Keyed by the master's address, not by the slot range: what fails is a node, and a failover hands the range to
 * another node. When a replica is promoted, the client's slot map names it for those slots within its scan interval,
 * so the shard's sales all move to the new master's breaker, which starts closed: they sell again together, as soon
 * as the client routes to the new master, instead of waiting out the dead node's open breaker ({@code wait-ms}) and
 * its probes. A range keeps no state worth carrying over (the new master has not failed), and ranges can be split or
 * moved by resharding, while a master address names one node. A master that keeps its address (a single server
 * restarted) keeps its breaker, which half-opens after the wait as any other.
 *
 * <p>Reported as one dependency, {@code redis}: open while the breaker of any master serving slots now is open. A
 * node that serves no slot any more (a dead master, rejoined as a replica) counts for nothing and its breaker is
 * dropped when a new master's is made, so the kept breakers are bounded by the masters the cluster has had since
 * the last failover.
 */
public final class ShardBreakers {

    private final ShardMap shards;
    private final BreakerSettings settings;
    private final Clock clock;
    private final boolean halfOpensByItself;
    private final Consumer<Breaker> onCreate;
    // Read on every purchase: a concurrent map, no lock on the hot path.
    private final Map<String, Breaker> byMaster = new ConcurrentHashMap<>();

    /** @param onCreate binds each new breaker's events (its metrics) */
    public ShardBreakers(ShardMap shards, BreakerSettings settings, Clock clock, boolean halfOpensByItself,
                         Consumer<Breaker> onCreate) {
        this.shards = shards;
        this.settings = settings;
        this.clock = clock;
        this.halfOpensByItself = halfOpensByItself;
        this.onCreate = onCreate;
    }

    public String name() {
        return "redis";
    }

    /** The breaker of the shard that serves this sale now. */
    public Breaker of(long saleId) {
        String master = shards.masterOf(saleId);
        Breaker known = byMaster.get(master);
        if (known != null) {
            return known;
        }
        // A master not seen before (the first call, or a failover): the nodes that serve no slot now are gone.
        Set<String> serving = shards.masters();
        byMaster.keySet().removeIf(m -> !serving.contains(m));
        return byMaster.computeIfAbsent(master, m -> {
            Breaker b = new Breaker(name(), settings, clock, halfOpensByItself);
            onCreate.accept(b);
            return b;
        });
    }

    /** True while the breaker of any master that serves slots now is open. */
    public boolean isOpen() {
        return serving().anyMatch(Breaker::isOpen);
    }

    /** The most severe state over the serving masters' breakers, as {@link BreakerMetrics} codes it (0 when none). */
    int stateCode() {
        return serving().mapToInt(b -> BreakerMetrics.code(b.state())).max().orElse(0);
    }

    private Stream<Breaker> serving() {
        Set<String> serving = shards.masters();
        return byMaster.entrySet().stream().filter(e -> serving.contains(e.getKey())).map(Map.Entry::getValue);
    }
}
