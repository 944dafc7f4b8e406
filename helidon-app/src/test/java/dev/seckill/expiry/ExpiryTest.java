package dev.seckill.expiry;

import dev.seckill.sale.UnitReturn;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One expiry pass without a stack: what it expires, releases, settles and reopens. */
class ExpiryTest {

    /** The database side in memory: lapsed orders per sale (already past payBy) and the owed rows. */
    private static final class Lapsed implements LapsedOrders {
        final Map<Long, List<LapsedOrder>> lapsedBySale = new LinkedHashMap<>();
        final List<LapsedOrder> owed = new ArrayList<>();
        final List<Integer> limits = new ArrayList<>();
        final Set<Long> broken = new java.util.HashSet<>();

        void lapse(long orderId, long saleId, long userId) {
            lapsedBySale.computeIfAbsent(saleId, s -> new ArrayList<>()).add(new LapsedOrder(orderId, saleId, userId));
        }

        @Override
        public Map<Long, Integer> salesWithConfirmedOrders() {
            Map<Long, Integer> out = new LinkedHashMap<>();
            lapsedBySale.keySet().forEach(s -> out.put(s, 2));
            return out;
        }

        @Override
        public List<LapsedOrder> expire(long saleId, int payWindowSeconds, int limit) {
            limits.add(limit);
            if (broken.contains(saleId)) {
                throw new dev.seckill.failure.DependencyUnavailable("constraint failed for sale " + saleId, null);
            }
            List<LapsedOrder> all = lapsedBySale.getOrDefault(saleId, new ArrayList<>());
            List<LapsedOrder> batch = new ArrayList<>(all.subList(0, Math.min(limit, all.size())));
            all.removeAll(batch);
            owed.addAll(batch);
            return batch;
        }

        @Override
        public List<LapsedOrder> pendingReturns(int limit) {
            return new ArrayList<>(owed.subList(0, Math.min(limit, owed.size())));
        }

        @Override
        public void settled(Collection<Long> orderIds) {
            owed.removeIf(o -> orderIds.contains(o.orderId()));
        }
    }

    private final Lapsed db = new Lapsed();
    /** Redis: remaining per sale, the returned order ids, and orders whose release fails. */
    private final Map<Long, Long> remaining = new LinkedHashMap<>();
    private final Set<Long> returned = new CopyOnWriteArraySet<>();
    private final Set<Long> failing = new CopyOnWriteArraySet<>();
    private final List<Long> reopened = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    /** release.lua over a batch: all or nothing, as a failing pipeline is to the pass. */
    private List<UnitReturn> release(List<UnitReturn.Request> batch) {
        if (batch.stream().anyMatch(r -> failing.contains(r.orderId()))) {
            throw new IllegalStateException("redis is down");
        }
        return batch.stream().map(r -> returned.add(r.orderId())
                ? UnitReturn.of(remaining.merge(r.saleId(), 1L, Long::sum)) : UnitReturn.of(0)).toList();
    }

    private Expiry expiry(int batch) {
        return new Expiry(db, this::release, reopened::add, new ExpiryMetrics(registry), batch);
    }

    @Test
    void aPassExpiresEveryLapsedOrderInBatchesAndGivesEachUnitBackOnce() {
        for (long i = 1; i <= 5; i++) {
            db.lapse(100 + i, 1, i);
        }
        remaining.put(1L, 0L);
        Expiry.Pass pass = expiry(2).run();
        assertEquals(5, pass.expired());
        assertEquals(Map.of(UnitReturn.Kind.RETURNED, 5), pass.releases());
        assertEquals(5L, remaining.get(1L));
        assertEquals(List.of(2, 2, 2), db.limits, "batches of 2 until one comes back short");
        assertEquals(List.of(), db.owed, "every owed row settled");
        assertEquals(5.0, registry.get("seckill.orders.expired").counter().count());
    }

    @Test
    void aSaleWhoseStockComesBackFromZeroIsReopenedOnce() {
        db.lapse(101, 1, 1);
        db.lapse(102, 1, 2);
        db.lapse(201, 2, 3);
        remaining.put(1L, 0L);
        remaining.put(2L, 4L);
        expiry(10).run();
        assertEquals(List.of(1L), reopened, "sale 2 was not sold out: nothing to clear");
    }

    @Test
    void unitsOwedByAnEarlierPassArePaidFirstAndNeverTwice() {
        db.lapse(101, 1, 1);
        db.lapse(102, 1, 2);
        remaining.put(1L, 0L);
        failing.add(102L);
        assertThrows(IllegalStateException.class, () -> expiry(10).run());
        assertEquals(List.of(101L, 102L), db.owed.stream().map(LapsedOrder::orderId).toList(),
                "expired in the database, still owed to Redis");
        assertEquals(List.of(), reopened);

        failing.clear();
        Expiry.Pass next = expiry(10).run();
        assertEquals(0, next.expired(), "nothing expires twice");
        assertEquals(Map.of(UnitReturn.Kind.RETURNED, 2), next.releases());
        assertEquals(2L, remaining.get(1L));
        assertEquals(List.of(1L), reopened);
        assertTrue(db.owed.isEmpty());
    }

    @Test
    void aReleaseRepeatedByAnotherInstanceChangesNothing() {
        db.lapse(101, 1, 1);
        remaining.put(1L, 3L);
        returned.add(101L);
        Expiry.Pass pass = expiry(10).run();
        assertEquals(Map.of(UnitReturn.Kind.ALREADY, 1), pass.releases());
        assertEquals(3L, remaining.get(1L));
        assertTrue(db.owed.isEmpty());
    }

    @Test
    void aSaleWhoseExpiryFailsDoesNotHoldBackTheOtherSalesUnits() {
        db.lapse(1, 10, 100);
        db.lapse(2, 20, 200);
        db.broken.add(10L);
        assertThrows(dev.seckill.failure.DependencyUnavailable.class, () -> expiry(10).run());
        assertTrue(returned.contains(2L), "sale 20's unit came back although sale 10 failed first");
        assertEquals(List.of(new LapsedOrder(1, 10, 100)), db.lapsedBySale.get(10L), "sale 10's order waits");
    }
}
