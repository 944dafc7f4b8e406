package dev.seckill.breaker;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Redis's circuit breakers, one per sale. A sale's keys share a hash tag, so each sale lives on one shard of a
 * Redis Cluster: when a shard's master dies, only the breakers of that shard's sales see its failures and open,
 * and the sales of the other shards sell on (one breaker for all of Redis would refuse them all for its wait).
 * With a single Redis every sale's breaker sees the outage and opens after its own window. Reported as one
 * dependency, {@code redis}: open while any sale's breaker is open. A shard's outage opens at most the breakers of
 * the sales it holds; the kept breakers are bounded ({@link #KEPT}).
 */
public final class SaleBreakers {

    /**
     * Past this many sales' breakers, the closed ones are dropped before another is made (a dropped one starts
     * again closed, with an empty window): sales come and go, the purchase path must not grow a map for ever.
     */
    static final int KEPT = 1024;

    private final BreakerSettings settings;
    private final Clock clock;
    private final boolean halfOpensByItself;
    private final Consumer<Breaker> onCreate;
    // Read on every purchase: a concurrent map, no lock on the hot path.
    private final Map<Long, Breaker> bySale = new ConcurrentHashMap<>();

    /** @param onCreate binds each new breaker's events (its metrics) */
    public SaleBreakers(BreakerSettings settings, Clock clock, boolean halfOpensByItself, Consumer<Breaker> onCreate) {
        this.settings = settings;
        this.clock = clock;
        this.halfOpensByItself = halfOpensByItself;
        this.onCreate = onCreate;
    }

    public String name() {
        return "redis";
    }

    /** The breaker of this sale's Redis calls. */
    public Breaker of(long saleId) {
        Breaker known = bySale.get(saleId);
        if (known != null) {
            return known;
        }
        if (bySale.size() >= KEPT) {
            bySale.values().removeIf(b -> b.state() == CircuitBreaker.State.CLOSED);
        }
        return bySale.computeIfAbsent(saleId, id -> {
            Breaker b = new Breaker(name(), settings, clock, halfOpensByItself);
            onCreate.accept(b);
            return b;
        });
    }

    /** True while the breaker of any sale is open. */
    public boolean isOpen() {
        return bySale.values().stream().anyMatch(Breaker::isOpen);
    }

    /** The most severe state over the sales' breakers, as {@link BreakerMetrics} codes it (0 when none). */
    int stateCode() {
        return bySale.values().stream().mapToInt(b -> BreakerMetrics.code(b.state())).max().orElse(0);
    }
}
