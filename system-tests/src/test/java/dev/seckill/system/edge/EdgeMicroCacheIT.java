package dev.seckill.system.edge;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The micro-cache of sale reads: hot reads within about a second never reach the service. */
class EdgeMicroCacheIT {

    private static final int READS = 20;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("micro-cache", "SECKILL_EDGE_MICROCACHE_TTL", "1s");
    private final HttpJson http = new HttpJson();

    @Test
    void repeatedSaleReadsWithinTheWindowAreServedByTheEdge() {
        long started = System.nanoTime();
        int hits = 0;
        for (int i = 0; i < READS; i++) {
            HttpJson.Response r = http.get(fixture.url("/api/sales/5"));
            assertEquals(200, r.status(), r.body());
            if ("HIT".equals(r.header("X-Cache-Status"))) {
                hits++;
            }
        }
        long elapsedSeconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();

        long reachedService = fixture.upstream().hits("/api/sales/5");
        // One fetch per window of about a second (a refresh after each expiry), however many reads.
        assertTrue(reachedService >= 1 && reachedService <= 2 + elapsedSeconds,
                reachedService + " of " + READS + " reads reached the service in " + elapsedSeconds + " s");
        assertTrue(hits >= READS - reachedService - 1, "X-Cache-Status HIT on " + hits + " of " + READS);
    }

    @Test
    void aCachedReadIsRefreshedAfterAboutASecond() {
        AtomicInteger version = new AtomicInteger(1);
        fixture.upstream().answer(hit -> hit.path().equals("/api/sales/6")
                ? UpstreamStub.Reply.json(200, "{\"id\":6,\"version\":" + version.get() + "}")
                : UpstreamStub.DEFAULT.answer(hit));
        assertEquals(1, http.get(fixture.url("/api/sales/6")).json().path("version").asInt());
        version.set(2);

        Await.until(Duration.ofSeconds(5),
                () -> http.get(fixture.url("/api/sales/6")).json().path("version").asInt() == 2,
                "the micro-cached read to be refreshed");
        fixture.upstream().answer(UpstreamStub.DEFAULT);
    }

    @Test
    void theSaleListIsCachedToo() {
        long started = System.nanoTime();
        long cacheHits = 0;
        for (int i = 0; i < 5; i++) {
            cacheHits += "HIT".equals(http.get(fixture.url("/api/sales")).header("X-Cache-Status")) ? 1 : 0;
        }
        long elapsedSeconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();

        assertTrue(cacheHits >= 1, "no read of the list was a cache HIT");
        long listReads = fixture.upstream().hits("/api/sales");
        assertTrue(listReads <= 2 + elapsedSeconds, listReads + " list reads");
    }

    /** A random query cannot make a read miss the cache and reach the service. */
    @Test
    void aQueryStringDoesNotBypassTheCache() {
        long started = System.nanoTime();
        for (int i = 0; i < READS; i++) {
            assertEquals(200, http.get(fixture.url("/api/sales/8?r=" + i)).status());
        }
        long elapsedSeconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();

        long reachedService = fixture.upstream().hits("/api/sales/8");
        assertTrue(reachedService >= 1 && reachedService <= 2 + elapsedSeconds,
                reachedService + " of " + READS + " reads with distinct queries reached the service");
        assertEquals(0, fixture.upstream().hits(h -> h.path().equals("/api/sales/8") && h.query() != null),
                "the query is not forwarded on a cached read");
    }

    @Test
    void purchasesAreNeverCached() {
        String path = "/api/sales/7/purchase";
        HttpJson.Response first = http.post(fixture.url(path), null, EdgeInstance.from("10.3.0.1"));
        HttpJson.Response second = http.post(fixture.url(path), null, EdgeInstance.from("10.3.0.1"));

        assertEquals(202, first.status());
        assertEquals(202, second.status());
        assertNull(second.header("X-Cache-Status"));
        assertEquals(2, fixture.upstream().hits(path));
    }
}
