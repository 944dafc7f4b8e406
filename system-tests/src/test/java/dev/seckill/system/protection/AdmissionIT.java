package dev.seckill.system.protection;

import dev.seckill.system.edge.EdgeFixture;
import dev.seckill.system.edge.EdgeInstance;
import dev.seckill.system.edge.UpstreamStub;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Total admission at the edge: whatever the number of client addresses, an edge forwards at most
 * SECKILL_EDGE_ADMIT_RATE purchases a second and SECKILL_EDGE_ADMIT_IN_FLIGHT at once to the service; the rest is
 * answered 429 RATE_LIMITED with Retry-After by the edge, and a sale's flag still answers first. Counts at the stub,
 * bounded by the time the flood lasted as the test measured it.
 */
class AdmissionIT {

    private static final int RATE = 20;
    private static final int CLIENTS = 64;
    private static final Duration FLOOD = Duration.ofSeconds(3);
    private static final String REFUSED = "seckill_edge_admission_refused_total{limit=\"%s\"}";

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("admission", "SECKILL_EDGE_ADMIT_RATE", Integer.toString(RATE));
    private final HttpJson http = new HttpJson();

    private static String path(long sale) {
        return "/api/sales/" + sale + "/purchase";
    }

    @Test
    void aFloodFromManyAddressesReachesTheServiceOnlyAtTheTotalRate() {
        long sale = 1811;
        long start = System.nanoTime();

        Flood.Result flood = Flood.run(fixture.url(path(sale)), CLIENTS, FLOOD, Flood::from);

        double seconds = (System.nanoTime() - start) / 1e9;
        long reached = fixture.upstream().hits(path(sale));
        long refused = flood.count("429 RATE_LIMITED");
        System.out.printf("admission: %d purchases from %d addresses in %.1f s (%.0f/s): %s; %d reached the service "
                + "(limit %d/s)%n", flood.total(), CLIENTS, flood.seconds(), flood.total() / flood.seconds(),
                flood.byKind(), reached, RATE);
        assertEquals(Set.of("202 QUEUED", "429 RATE_LIMITED"), flood.answeredKinds(), flood.byKind().toString());
        // A request whose answer the client lost may have reached the service.
        assertTrue(reached >= flood.count("202 QUEUED") && reached <= flood.count("202 QUEUED")
                + flood.count(Flood.NO_ANSWER), reached + " reached the service: " + flood.byKind());
        assertTrue(reached >= RATE, "a full second's worth was admitted: " + reached);
        assertTrue(reached <= RATE * (seconds + 1), reached + " purchases reached the service in " + seconds
                + " s at a total limit of " + RATE + "/s");
        // Likewise a refusal whose answer the client lost was counted by the edge (CI saw 44,021 against 44,020).
        long counted = EdgeCounters.value(http, fixture.edge(), REFUSED.formatted("rate"));
        assertTrue(counted >= refused && counted <= refused + flood.count(Flood.NO_ANSWER),
                counted + " refusals counted by the edge: " + flood.byKind());

        Flood.Answer a = flood.first().get("429 RATE_LIMITED");
        assertEquals("1", a.header("Retry-After"));
        assertTrue(a.body().contains("\"retryAfter\":1") && a.body().contains("\"requestId\":"), a.body());
        assertNull(a.header("X-RateLimit-Limit"), "not a client's own allowance, so no X-RateLimit-*");
    }

    @Test
    void purchasesInFlightAreBoundedAndGivenBack() {
        long sale = 1812;
        int inFlight = 3;
        CountDownLatch release = new CountDownLatch(1);
        fixture.upstream().answer(hit -> {
            if (hit.path().equals(path(sale))) {
                release.await(20, TimeUnit.SECONDS);
            }
            return UpstreamStub.DEFAULT.answer(hit);
        });
        try (EdgeInstance edge = fixture.another("admission-in-flight",
                "SECKILL_EDGE_ADMIT_IN_FLIGHT", Integer.toString(inFlight))) {
            http.send("PUT", edge.url("/edge/flags/sold-out/1813?ttl=60"), null);
            List<CompletableFuture<HttpJson.Response>> held = new ArrayList<>();
            try {
                for (int i = 0; i < inFlight; i++) {
                    String address = "10.18.201." + i;
                    held.add(CompletableFuture.supplyAsync(() -> http.post(edge.url(path(sale)), null, from(address))));
                }
                Await.until(Duration.ofSeconds(10), () -> fixture.upstream().hits(path(sale)) == inFlight,
                        inFlight + " purchases held at the service");

                HttpJson.Response refused = http.post(edge.url(path(sale)), null, from("10.18.201.100"));
                HttpJson.Response flagged = http.post(edge.url(path(1813)), null, from("10.18.201.101"));

                assertEquals(429, refused.status(), refused.body());
                assertEquals("RATE_LIMITED", refused.code(), refused.body());
                assertEquals("1", refused.header("Retry-After"));
                assertEquals(410, flagged.status(), "the flag answers before the admission: " + flagged.body());
                assertEquals(inFlight, EdgeCounters.value(http, edge, "seckill_edge_purchases_in_flight"));
            } finally {
                release.countDown();
            }
            held.forEach(f -> assertEquals(202, f.join().status()));
            Await.until(Duration.ofSeconds(10),
                    () -> EdgeCounters.value(http, edge, "seckill_edge_purchases_in_flight") == 0,
                    "the answered purchases to leave the gauge");
            assertEquals(202, http.post(edge.url(path(sale)), null, from("10.18.201.100")).status());
            assertEquals(1, EdgeCounters.value(http, edge, REFUSED.formatted("in_flight")));
        }
    }

    /** A purchase the edge fails to deliver (503) is given back too, or a dead service would use up the gauge. */
    @Test
    void purchasesThatFailAtTheUpstreamLeaveTheGauge() {
        try (EdgeInstance edge = fixture.another("admission-dead-upstream",
                "SECKILL_EDGE_UPSTREAM", "127.0.0.1:" + closedPort(), "SECKILL_EDGE_ADMIT_IN_FLIGHT", "2")) {
            for (int i = 0; i < 5; i++) {
                HttpJson.Response r = http.post(edge.url(path(1814)), null, from("10.18.202." + i));
                assertEquals(503, r.status(), "purchase " + i + ": " + r.body());
                assertEquals("UNAVAILABLE", r.code(), r.body());
            }
            assertEquals(0, EdgeCounters.value(http, edge, "seckill_edge_purchases_in_flight"));
        }
    }

    /** A loopback port nobody listens on (taken, then released). */
    private static int closedPort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to find a free port", e);
        }
    }
}
