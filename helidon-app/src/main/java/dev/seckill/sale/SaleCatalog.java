package dev.seckill.sale;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sales by id, cached in-process (a sale's facts never change). Ids that cannot exist are answered without
 * touching the database: non-positive ids, and ids above the highest id known, which is refreshed from the DB
 * at most once a second — a flood of random ids costs one query a second, not one per request.
 */
public final class SaleCatalog {

    private static final long MAX_ID_REFRESH_MS = 1000;

    private final SaleSource repository;
    private final Clock clock;
    private final ConcurrentMap<Long, Sale> sales = new ConcurrentHashMap<>();
    private final AtomicLong maxId = new AtomicLong(-1);
    private volatile long maxIdReadAt = Long.MIN_VALUE / 2;

    public SaleCatalog(SaleSource repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    public Optional<Sale> find(long id) {
        if (id <= 0) {
            return Optional.empty();
        }
        Sale cached = sales.get(id);
        if (cached != null) {
            return Optional.of(cached);
        }
        if (id > knownMaxId()) {
            return Optional.empty();
        }
        Optional<Sale> loaded = repository.find(id);
        loaded.ifPresent(this::remember);
        return loaded;
    }

    /** Records a sale this instance just created or listed. */
    public void remember(Sale sale) {
        sales.put(sale.id(), sale);
        maxId.accumulateAndGet(sale.id(), Math::max);
    }

    /**
     * The highest sale id known, refreshed from the DB at most once a second. The refresh happens under a lock
     * that concurrent callers wait on, so nobody answers from a value that is still being loaded (regression:
     * right after a restart, requests racing the first refresh were answered 404 for existing sales).
     */
    private long knownMaxId() {
        if (clock.millis() - maxIdReadAt >= MAX_ID_REFRESH_MS) {
            synchronized (this) {
                long now = clock.millis();
                if (now - maxIdReadAt >= MAX_ID_REFRESH_MS) {
                    maxId.accumulateAndGet(repository.maxId(), Math::max);
                    maxIdReadAt = now;
                }
            }
        }
        return maxId.get();
    }
}
