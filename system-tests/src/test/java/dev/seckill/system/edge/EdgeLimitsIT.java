package dev.seckill.system.edge;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.seckill.system.edge.EdgeInstance.from;
import static dev.seckill.system.edge.EdgeRateLimitIT.assertRateLimited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The edge's other limits: per-IP limits on sale reads, order status and sign-in, each its own zone with
 * the purchase limit's 429; requests in progress per IP; a client trickling its headers cut off. The limited routes
 * refill one request a minute, so within a test the counts and headers are exact.
 */
class EdgeLimitsIT {

    private static final int BURST = 2;
    private static final int IN_PROGRESS = 2;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("limits",
            "SECKILL_EDGE_READ_RATE", "1r/m", "SECKILL_EDGE_READ_BURST", Integer.toString(BURST),
            "SECKILL_EDGE_ORDER_RATE", "1r/m", "SECKILL_EDGE_ORDER_BURST", Integer.toString(BURST),
            "SECKILL_EDGE_LOGIN_RATE", "1r/m", "SECKILL_EDGE_LOGIN_BURST", Integer.toString(BURST),
            "SECKILL_EDGE_CONN_PER_IP", Integer.toString(IN_PROGRESS));
    private final HttpJson http = new HttpJson();

    @Test
    void saleReadsArePerIpLimitedEvenWhenCached() {
        List<HttpJson.Response> answers =
                repeat(BURST + 3, () -> http.get(fixture.url("/api/sales/3"), from("10.7.0.1")));

        answers.subList(0, BURST + 1).forEach(r -> assertEquals(200, r.status(), r.body()));
        answers.subList(BURST + 1, answers.size()).forEach(r -> assertRateLimited(r, 60, BURST + 1, 120));
        assertEquals(200, http.get(fixture.url("/api/sales"), from("10.7.0.2")).status(), "another client");
    }

    @Test
    void orderStatusIsPerIpLimited() {
        List<HttpJson.Response> answers =
                repeat(BURST + 2, () -> http.get(fixture.url("/api/orders/7"), from("10.7.0.3")));

        answers.subList(0, BURST + 1).forEach(r -> assertEquals(200, r.status(), r.body()));
        assertRateLimited(answers.getLast(), 60, BURST + 1, 120);
        assertEquals(BURST + 1, fixture.upstream().hits(h -> "10.7.0.3".equals(h.header("X-Forwarded-For"))));
    }

    @Test
    void signInIsPerIpLimited() {
        List<HttpJson.Response> answers =
                repeat(BURST + 2, () -> http.post(fixture.url("/api/login"), "{\"name\":\"x\"}", from("10.7.0.4")));

        answers.subList(0, BURST + 1).forEach(r -> assertEquals(200, r.status(), r.body()));
        assertRateLimited(answers.getLast(), 60, BURST + 1, 120);
    }

    @Test
    void eachKindOfRouteHasItsOwnAllowance() {
        repeat(BURST + 2, () -> http.get(fixture.url("/api/sales/4"), from("10.7.0.5")));

        assertEquals(200, http.get(fixture.url("/api/orders/8"), from("10.7.0.5")).status(), "order status");
        assertEquals(202, http.post(fixture.url("/api/sales/4/purchase"), null, from("10.7.0.5")).status(), "purchase");
    }

    @Test
    void tooManyRequestsInProgressFromOneAddressAre429() {
        String held = "10.7.0.6";
        CountDownLatch release = new CountDownLatch(1);
        fixture.upstream().answer(hit -> {
            if (held.equals(hit.header("X-Forwarded-For"))) {
                release.await(20, TimeUnit.SECONDS);
            }
            return UpstreamStub.DEFAULT.answer(hit);
        });
        List<CompletableFuture<HttpJson.Response>> inProgress = new ArrayList<>();
        try {
            for (int i = 0; i < IN_PROGRESS; i++) {
                inProgress.add(CompletableFuture.supplyAsync(
                        () -> http.post(fixture.url("/api/sales/5/purchase"), null, from(held))));
            }
            Await.until(Duration.ofSeconds(10), () -> fixture.upstream().hits(h -> held.equals(
                    h.header("X-Forwarded-For"))) == IN_PROGRESS, IN_PROGRESS + " purchases held at the service");

            HttpJson.Response refused = http.post(fixture.url("/api/sales/5/purchase"), null, from(held));
            HttpJson.Response other = http.post(fixture.url("/api/sales/5/purchase"), null, from("10.7.0.7"));

            assertEquals(429, refused.status(), refused.body());
            assertEquals("RATE_LIMITED", refused.code(), refused.body());
            assertEquals("1", refused.header("Retry-After"));
            assertEquals(202, other.status(), other.body());
        } finally {
            release.countDown();
        }
        inProgress.forEach(f -> assertEquals(202, f.join().status()));
    }

    /**
     * nginx's header timer does not restart when a byte arrives: a trickle is cut at the header timeout (10 s,
     * conf.d/00-tunables.conf's client_header_timeout, a constant).
     */
    @Test
    void aClientTricklingItsHeadersIsCutOff() throws IOException {
        Duration deadline = Duration.ofSeconds(20);
        long started = System.nanoTime();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), fixture.edge().port())) {
            // Each read waits up to 200 ms for the edge to answer or close; meanwhile one more header byte goes out.
            s.setSoTimeout(200);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write("GET /api/sales/6 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
            while (Duration.ofNanos(System.nanoTime() - started).compareTo(deadline) < 0) {
                try {
                    out.write('a');
                    out.flush();
                    int got = in.read();
                    if (got < 0) {
                        break;
                    }
                    fail("the edge answered a request whose header never ended (first byte " + got + ")");
                } catch (SocketTimeoutException stillOpen) {
                    // Not cut yet: trickle on.
                } catch (IOException reset) {
                    break;
                }
            }
        }
        Duration held = Duration.ofNanos(System.nanoTime() - started);
        assertTrue(held.compareTo(deadline) < 0, "a trickling client was still connected after " + held);
        assertEquals(0, fixture.upstream().hits("/api/sales/6"));
    }

    private static List<HttpJson.Response> repeat(int n, Supplier<HttpJson.Response> request) {
        List<HttpJson.Response> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            answers.add(request.get());
        }
        return answers;
    }
}
