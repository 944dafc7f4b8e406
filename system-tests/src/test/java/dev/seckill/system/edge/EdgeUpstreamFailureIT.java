package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service down, slow or failing, seen through the edge: nginx's own failures become 503 JSON with
 * Retry-After, never an HTML page; the service's own 503 passes through as it is. Each test has its own stub and
 * edge.
 */
class EdgeUpstreamFailureIT {

    /** A fresh stub and edge for each test (one of them stops the stub); answers take at most 1 s. */
    @RegisterExtension
    final EdgeFixture fixture = EdgeFixture.of("upstream-failure", "SECKILL_EDGE_READ_TIMEOUT", "1s");
    private final HttpJson http = new HttpJson();

    @Test
    void stoppedUpstreamBecomes503JsonWithRetryAfter() {
        assertEquals(202, http.post(fixture.url("/api/sales/1/purchase"), null, from("10.4.0.1")).status());
        fixture.upstream().close();

        HttpJson.Response purchase = http.post(fixture.url("/api/sales/1/purchase"), null, from("10.4.0.1"));
        HttpJson.Response read = http.get(fixture.url("/api/sales/2"));
        HttpJson.Response health = http.get(fixture.url("/api/health"));

        for (HttpJson.Response r : new HttpJson.Response[] {purchase, read, health}) {
            assertUnavailable(r);
        }
        assertTrue(fixture.metrics(http).matches(
                "(?s).*seckill_edge_upstream_errors_total\\{status=\"502\"} [1-9].*"),
                fixture.metrics(http));
    }

    @Test
    void slowUpstreamBecomes503AfterTheReadTimeout() {
        CountDownLatch release = new CountDownLatch(1);
        try {
            // The service holds the purchase until the test lets it go (at most 20 s).
            fixture.upstream().answer(hit -> {
                release.await(20, TimeUnit.SECONDS);
                return UpstreamStub.DEFAULT.answer(hit);
            });

            HttpJson.Response r = http.post(fixture.url("/api/sales/3/purchase"), null, from("10.4.0.2"));

            assertUnavailable(r);
            assertTrue(fixture.metrics(http).matches(
                "(?s).*seckill_edge_upstream_errors_total\\{status=\"504\"} [1-9].*"),
                    fixture.metrics(http));
        } finally {
            release.countDown();
        }
    }

    @Test
    void theServicesOwn503PassesThroughUnchanged() {
        String body = "{\"code\":\"UNAVAILABLE\",\"message\":\"redis is down\"}";
        fixture.upstream().answer(hit -> UpstreamStub.Reply.json(503, body, "Retry-After", "3"));

        HttpJson.Response r = http.post(fixture.url("/api/sales/4/purchase"), null, from("10.4.0.3"));

        assertEquals(503, r.status());
        assertEquals(body, r.body());
        assertEquals("3", r.header("Retry-After"));
    }

    private static void assertUnavailable(HttpJson.Response r) {
        assertEquals(503, r.status(), r.body());
        assertTrue(r.header("Content-Type").startsWith("application/json"), r.header("Content-Type"));
        assertEquals("UNAVAILABLE", r.code(), r.body());
        int retryAfter = Integer.parseInt(r.header("Retry-After"));
        assertTrue(retryAfter >= 1, "Retry-After " + retryAfter);
    }
}
