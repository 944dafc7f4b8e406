package dev.seckill.sale;

import dev.seckill.testkit.TestClock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SaleCatalogTest {

    private static final Instant T0 = Instant.parse("2030-01-01T10:00:00Z");

    private static Sale sale(long id) {
        return new Sale(id, "s" + id, 1, 1, T0, T0.plusSeconds(60));
    }

    /** Sales in memory counting every read; its first {@code since} read can be held back. */
    private static final class CountingSource implements SaleSource {
        final Map<Long, Sale> rows = new ConcurrentSkipListMap<>();
        final AtomicInteger sinceReads = new AtomicInteger();
        final AtomicInteger finds = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        CountingSource with(long... ids) {
            for (long id : ids) {
                rows.put(id, sale(id));
            }
            return this;
        }

        @Override
        public Optional<Sale> find(long id) {
            finds.incrementAndGet();
            return Optional.ofNullable(rows.get(id));
        }

        @Override
        public long maxId() {
            throw new AssertionError("the catalog learns sales through since()");
        }

        @Override
        public List<Sale> since(long afterId, int limit) {
            sinceReads.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return rows.values().stream().filter(s -> s.id() > afterId).limit(limit).toList();
        }

        @Override
        public List<Sale> current(Instant now) {
            return List.copyOf(rows.values());
        }
    }

    @Test
    void requestsRacingTheFirstRefreshAfterARestartStillFindAnExistingSale() throws Exception {
        CountingSource source = new CountingSource().with(7);
        SaleCatalog catalog = new SaleCatalog(source, Clock.systemUTC());
        List<Future<Optional<Sale>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 20; i++) {
                answers.add(pool.submit(() -> catalog.find(7)));
            }
            source.release.countDown();
            for (Future<Optional<Sale>> a : answers) {
                assertEquals(Optional.of(sale(7)), a.get());
            }
        }
        assertEquals(1, source.sinceReads.get(), "one refresh, however many callers");
    }

    @Test
    void idsThatCannotExistAreAnsweredWithoutLoadingTheSale() {
        CountingSource source = new CountingSource().with(7);
        source.release.countDown();
        SaleCatalog catalog = new SaleCatalog(source, Clock.systemUTC());
        assertTrue(catalog.find(0).isEmpty());
        assertTrue(catalog.find(-5).isEmpty());
        assertTrue(catalog.find(1_000_000).isEmpty());
        assertEquals(0, source.finds.get(), "no per-id query for ids above the highest known");
    }

    @Test
    void aMissingIdBelowTheHighestCostsNoQueryOnceItsGapIsOld() {
        CountingSource source = new CountingSource().with(1, 2, 5);
        source.release.countDown();
        TestClock clock = new TestClock(T0);
        SaleCatalog catalog = new SaleCatalog(source, clock);
        assertTrue(catalog.find(5).isPresent());
        clock.advance(Duration.ofMillis(SaleCatalog.GAP_MILLIS));
        int reads = source.sinceReads.get();
        for (int i = 0; i < 1000; i++) {
            assertTrue(catalog.find(3).isEmpty());
            assertTrue(catalog.find(4).isEmpty());
        }
        assertEquals(0, source.finds.get(), "no per-id query below the highest id read");
        assertEquals(reads, source.sinceReads.get(), "and no refresh either");
    }

    @Test
    void aSaleCommittedLateBelowANewerOneIsFoundWhileItsGapIsYoung() {
        CountingSource source = new CountingSource().with(1, 3);
        source.release.countDown();
        TestClock clock = new TestClock(T0);
        SaleCatalog catalog = new SaleCatalog(source, clock);
        assertTrue(catalog.find(3).isPresent());
        source.with(2);
        clock.advance(Duration.ofSeconds(2));
        assertEquals(Optional.of(sale(2)), catalog.find(2), "the concurrent insert that committed after 3");
        assertEquals(1, source.finds.get());
        assertTrue(catalog.find(2).isPresent());
        assertEquals(1, source.finds.get(), "held from then on");
    }

    @Test
    void aNewSaleAboveTheHighestIsLearntAtMostOnceASecond() {
        CountingSource source = new CountingSource().with(1);
        source.release.countDown();
        TestClock clock = new TestClock(T0);
        SaleCatalog catalog = new SaleCatalog(source, clock);
        assertTrue(catalog.find(1).isPresent());
        source.with(2);
        assertTrue(catalog.find(2).isEmpty(), "refreshed less than a second ago");
        clock.advance(Duration.ofSeconds(1));
        assertTrue(catalog.find(2).isPresent());
    }

    @Test
    void sellingAtCoversOnlyTheKnownSalesWindowsWithTheSlack() {
        CountingSource source = new CountingSource().with(1);
        source.release.countDown();
        SaleCatalog catalog = new SaleCatalog(source, Clock.systemUTC());
        assertTrue(catalog.sellingAt(T0.plusSeconds(30), 0));
        assertTrue(catalog.sellingAt(T0.minusMillis(500), 1000));
        assertFalse(catalog.sellingAt(T0.minusSeconds(5), 1000));
        assertFalse(catalog.sellingAt(T0.plusSeconds(70), 1000));
    }
}
