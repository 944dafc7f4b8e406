package dev.seckill.sale;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every sale, held in-process (a sale's facts never change; ~200 bytes each, 20 MB for 100,000 sales), learnt from
 * the database in id order: the catalog has read every sale up to {@code loadedThrough}, so an id at or below it
 * that is not held does not exist and is answered without a query (non-positive ids, gaps, deleted rows alike).
 * Only an id above it reads the database, at most once a second, and that read brings every newer sale at once — a
 * flood of random ids costs one query a second, not one per request.
 *
 * <p>Auto-increment ids are handed out at insert but become visible at commit, so a read can see sale 11 before
 * sale 10 of a concurrent insert on another instance commits. Ids missing below the newest one read are therefore
 * held as young gaps for {@link #GAP_MILLIS}: a lookup of one reads its row (a gap is rare: a failed insert or a
 * race of two creations, whose ids are handed out milliseconds before their commit); after that the gap is final.
 */
public final class SaleCatalog {

    private static final long REFRESH_MS = 1000;
    static final long GAP_MILLIS = 5_000;
    private static final int PAGE = 1000;
    private static final int MAX_GAPS = 1000;

    private final SaleSource repository;
    private final Clock clock;
    private final ConcurrentMap<Long, Sale> sales = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, Long> youngGaps = new ConcurrentHashMap<>();
    private final SaleWindows windows = new SaleWindows();
    private volatile long loadedThrough;
    private volatile long refreshedAt = Long.MIN_VALUE / 2;

    public SaleCatalog(SaleSource repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    public Optional<Sale> find(long id) {
        if (id <= 0) {
            return Optional.empty();
        }
        Sale held = sales.get(id);
        if (held != null) {
            return Optional.of(held);
        }
        if (id > loadedThrough) {
            refresh();
            return Optional.ofNullable(sales.get(id));
        }
        Long gapSeen = youngGaps.get(id);
        if (gapSeen != null && clock.millis() - gapSeen < GAP_MILLIS) {
            Optional<Sale> late = repository.find(id);
            late.ifPresent(this::remember);
            return late;
        }
        return Optional.empty();
    }

    /** Records a sale this instance just created or listed (the gaps below it are learnt at the next refresh). */
    public void remember(Sale sale) {
        sales.put(sale.id(), sale);
        youngGaps.remove(sale.id());
        windows.add(sale.startsAt(), sale.endsAt());
    }

    /**
     * Whether some sale known here was selling at {@code t}, give or take {@code slackMillis}; learns newer sales
     * first when none was (at most once a second), so an order of a sale just created elsewhere is not missed.
     */
    public boolean sellingAt(Instant t, long slackMillis) {
        if (windows.covers(t, slackMillis)) {
            return true;
        }
        refresh();
        return windows.covers(t, slackMillis);
    }

    /**
     * Reads the sales above {@code loadedThrough}, at most once a second. Under a lock that concurrent callers wait
     * on, so nobody answers from a catalog that is still loading (regression: right after a restart, requests
     * racing the first refresh were answered 404 for existing sales).
     */
    private void refresh() {
        if (clock.millis() - refreshedAt < REFRESH_MS) {
            return;
        }
        synchronized (this) {
            long now = clock.millis();
            if (now - refreshedAt < REFRESH_MS) {
                return;
            }
            youngGaps.values().removeIf(seen -> now - seen >= GAP_MILLIS);
            long through = loadedThrough;
            List<Sale> page;
            do {
                page = repository.since(through, PAGE);
                for (Sale s : page) {
                    // Bounded: a jump of the auto-increment (an operator's ALTER) is not a thousand racing inserts.
                    for (long gap = Math.max(through + 1, s.id() - MAX_GAPS); gap < s.id(); gap++) {
                        if (!sales.containsKey(gap)) {
                            youngGaps.putIfAbsent(gap, now);
                        }
                    }
                    remember(s);
                    through = s.id();
                }
            } while (page.size() == PAGE);
            loadedThrough = through;
            refreshedAt = now;
        }
    }

    /** Sales held (for tests and the stats). */
    int size() {
        return sales.size();
    }

    Map<Long, Long> gaps() {
        return Map.copyOf(youngGaps);
    }
}
