package dev.seckill.sale;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SaleCatalogTest {

    private static final Sale SALE = new Sale(7, "s", 1, 1, Instant.EPOCH, Instant.EPOCH.plusSeconds(60));

    /** A source whose max-id query is slow, so concurrent callers race the first refresh. */
    private static final class SlowSource implements SaleSource {
        final AtomicInteger maxIdQueries = new AtomicInteger();
        final AtomicInteger finds = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Optional<Sale> find(long id) {
            finds.incrementAndGet();
            return id == SALE.id() ? Optional.of(SALE) : Optional.empty();
        }

        @Override
        public long maxId() {
            maxIdQueries.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return SALE.id();
        }

        @Override
        public List<Sale> current(Instant now) {
            return List.of(SALE);
        }
    }

    @Test
    void requestsRacingTheFirstRefreshAfterARestartStillFindAnExistingSale() throws Exception {
        SlowSource source = new SlowSource();
        SaleCatalog catalog = new SaleCatalog(source, Clock.systemUTC());
        List<Future<Optional<Sale>>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 20; i++) {
                answers.add(pool.submit(() -> catalog.find(SALE.id())));
            }
            source.release.countDown();
            for (Future<Optional<Sale>> a : answers) {
                assertEquals(Optional.of(SALE), a.get());
            }
        }
        assertEquals(1, source.maxIdQueries.get(), "one refresh, however many callers");
    }

    @Test
    void idsThatCannotExistAreAnsweredWithoutLoadingTheSale() {
        SlowSource source = new SlowSource();
        source.release.countDown();
        SaleCatalog catalog = new SaleCatalog(source, Clock.systemUTC());
        assertTrue(catalog.find(0).isEmpty());
        assertTrue(catalog.find(-5).isEmpty());
        assertTrue(catalog.find(1_000_000).isEmpty());
        assertEquals(0, source.finds.get(), "no per-id query for ids above the highest known");
    }
}
