package dev.seckill.expiry;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.sale.UnitReturn;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass of the expiry, without scheduling: lapse the orders whose payment window passed, and give their units
 * back to Redis. Safe to run on every instance at once and after any crash:
 * <ol>
 *   <li>the database decides, one transaction per batch: CONFIRMED orders past payBy become EXPIRED, the DB stock
 *   gets their units back, and a unit_return row per order records what Redis is owed (LapsedOrderRepository);</li>
 *   <li>Redis is paid what it is owed by release.lua, keyed by the order id, so a retry or a second instance never
 *   returns a unit twice; a batch's owed rows are deleted once the scripts answered, whatever they answered (what
 *   they could not do, reconcile repairs from the database); if Redis fails, the rows stay for the next pass;</li>
 *   <li>a sale whose stock came back from zero is reopened: the sold-out flags of this instance and the edges are
 *   cleared, or the returned unit would not really be on sale.</li>
 * </ol>
 * Owed units left by an earlier pass (Redis was down, the instance died) are paid first.
 */
public final class Expiry {

    /**
     * Gives back orders' units in Redis, one answer per order in the same order (release.lua in one pipelined
     * batch through RedisUnitLedger; a fake in unit tests).
     */
    @FunctionalInterface
    public interface Releaser {
        List<UnitReturn> release(List<UnitReturn.Request> orders);
    }

    /** Told of a sale whose stock came back from zero (clears this instance's and the edges' sold-out flags). */
    @FunctionalInterface
    public interface Reopener {
        void reopened(long saleId);
    }

    /** What a pass did: orders expired, and the release answers by kind. */
    public record Pass(int expired, Map<UnitReturn.Kind, Integer> releases) {
    }

    private final LapsedOrders orders;
    private final Releaser releaser;
    private final Reopener reopener;
    private final ExpiryMetrics metrics;
    private final int batch;

    public Expiry(LapsedOrders orders, Releaser releaser, Reopener reopener, ExpiryMetrics metrics, int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be at least 1");
        }
        this.orders = orders;
        this.releaser = releaser;
        this.reopener = reopener;
        this.metrics = metrics;
        this.batch = batch;
    }

    /**
     * @throws dev.seckill.failure.DependencyUnavailable or a Redis exception when the database or Redis fails: what
     *         was committed stays committed, and the next pass goes on from the owed rows
     */
    public Pass run() {
        Map<UnitReturn.Kind, Integer> releases = new EnumMap<>(UnitReturn.Kind.class);
        List<LapsedOrder> owed;
        do {
            owed = orders.pendingReturns(batch);
            release(owed, releases);
        } while (owed.size() == batch);
        int expired = 0;
        // One sale's failure does not hold the others' units back: each sale goes on; the pass then fails with the
        // first failure (the runner logs it and the next pass tries that sale again).
        DependencyUnavailable failed = null;
        for (Map.Entry<Long, Integer> sale : orders.salesWithConfirmedOrders().entrySet()) {
            List<LapsedOrder> lapsed = List.of();
            do {
                try {
                    lapsed = orders.expire(sale.getKey(), sale.getValue(), batch);
                } catch (DependencyUnavailable e) {
                    failed = failed == null ? e : failed;
                    break;
                }
                metrics.expired(lapsed.size());
                expired += lapsed.size();
                release(lapsed, releases);
            } while (lapsed.size() == batch);
        }
        if (failed != null) {
            throw failed;
        }
        return new Pass(expired, releases);
    }

    private void release(List<LapsedOrder> owed, Map<UnitReturn.Kind, Integer> releases) {
        if (owed.isEmpty()) {
            return;
        }
        List<UnitReturn> answers = releaser.release(owed.stream()
                .map(o -> new UnitReturn.Request(o.saleId(), o.userId(), o.orderId())).toList());
        List<Long> settled = new ArrayList<>();
        Set<Long> reopened = new HashSet<>();
        for (int i = 0; i < owed.size(); i++) {
            UnitReturn r = answers.get(i);
            settled.add(owed.get(i).orderId());
            releases.merge(r.kind(), 1, Integer::sum);
            metrics.released(r.kind());
            if (r.reopened()) {
                reopened.add(owed.get(i).saleId());
            }
        }
        // A unit that came back must sell at once: this instance's and the edges' sold-out flags go first.
        reopened.forEach(reopener::reopened);
        orders.settled(settled);
    }
}
