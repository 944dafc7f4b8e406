package dev.seckill.system.edge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.seckill.system.edge.EdgeInstance.from;
import static dev.seckill.system.edge.EdgeRateLimitIT.assertRateLimited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protected sales at the edge: a protected sale's purchase route {@code POST /api/sales/{id}/purchase/{path}} is covered by
 * the sold-out short-circuit and the per-IP purchase limit exactly as the plain route is (one flag and one bucket for
 * both), and the challenge and path steps answer the sale's 410 while its flag is fresh but never serve as its
 * re-check. The stub stands in for the service, so its hits tell an edge answer from a service answer. Each test
 * uses its own sale ids and client addresses.
 */
class ProtectedRoutesEdgeIT {

    private static final String PATH_A = "pA1_-pathOfUserA0123456789abcdef";
    private static final String PATH_B = "pB2_-pathOfUserB0123456789abcdef";
    private static final int FLAGGED = 10;
    private static final int BURST = 4;
    private static final int READ_BURST = 2;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("protected-routes");
    private final HttpJson http = new HttpJson();

    private static String soldOutBody(long saleId) {
        return "{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"saleId\":" + saleId + "}";
    }

    /** The service's SOLD_OUT (body and header) for every purchase of the sale, on either route. */
    private static UpstreamStub.Responder soldOut(long saleId) {
        String plain = "/api/sales/" + saleId + "/purchase";
        return hit -> hit.path().equals(plain) || hit.path().startsWith(plain + "/")
                ? UpstreamStub.Reply.json(410, soldOutBody(saleId), "X-Seckill-Sold-Out", "1")
                : UpstreamStub.DEFAULT.answer(hit);
    }

    /** A service with stock: 202 on either purchase route, 200 on anything else. */
    private static UpstreamStub.Reply open(UpstreamStub.Hit hit) throws InterruptedException {
        return hit.path().matches("/api/sales/\\d+/purchase(/.*)?")
                ? UpstreamStub.Reply.json(202, "{\"code\":\"QUEUED\",\"orderId\":\"o-1\"}")
                : UpstreamStub.DEFAULT.answer(hit);
    }

    private static long purchasesReaching(long saleId) {
        return fixture.upstream().hits(h -> h.path().startsWith("/api/sales/" + saleId + "/purchase"));
    }

    private HttpJson.Response purchase(EdgeInstance edge, long saleId, String path, String client) {
        String route = "/api/sales/" + saleId + "/purchase" + (path == null ? "" : "/" + path);
        return http.post(edge.url(route), null, from(client));
    }

    private HttpJson.Response challenge(EdgeInstance edge, long saleId, String client) {
        return http.get(edge.url("/api/sales/" + saleId + "/challenge"), from(client));
    }

    private HttpJson.Response pathStep(EdgeInstance edge, long saleId, String client) {
        return http.post(edge.url("/api/sales/" + saleId + "/path"), "{\"challengeId\":\"c\",\"nonce\":\"1\"}",
                from(client));
    }

    private static void assertAnsweredSoldOut(long saleId, HttpJson.Response r) {
        assertEquals(410, r.status(), r.body());
        assertEquals(soldOutBody(saleId), r.body(), "the edge answers the service's very body");
        assertEquals("1", r.header("X-Seckill-Sold-Out"));
        assertTrue(r.header("Content-Type").startsWith("application/json"), r.header("Content-Type"));
    }

    @Test
    void aSoldOutPathPurchaseFlagsTheSaleForEveryPurchaseAndStep() {
        fixture.upstream().answer(soldOut(61));
        long shortCircuitsBefore = shortCircuits();

        assertEquals(410, purchase(fixture.edge(), 61, PATH_A, "10.15.0.1").status());
        assertEquals(1, purchasesReaching(61), "the first purchase is the service's");

        for (int i = 0; i < FLAGGED; i++) {
            assertAnsweredSoldOut(61, purchase(fixture.edge(), 61, PATH_A, "10.15.0.1"));
            assertAnsweredSoldOut(61, purchase(fixture.edge(), 61, PATH_B, "10.15.0.2"));
            assertAnsweredSoldOut(61, purchase(fixture.edge(), 61, null, "10.15.0.3"));
            assertAnsweredSoldOut(61, challenge(fixture.edge(), 61, "10.15.0.4"));
            assertAnsweredSoldOut(61, pathStep(fixture.edge(), 61, "10.15.0.4"));
        }
        assertEquals(1, purchasesReaching(61), "flagged purchases never reach the service, on either route");
        assertEquals(0, fixture.upstream().hits(h -> h.path().matches("/api/sales/61/(challenge|path)")),
                "nobody is sent to solve a puzzle for a sold-out sale");
        assertEquals(shortCircuitsBefore + 5L * FLAGGED, shortCircuits(), "each one counted as a short-circuit");
    }

    @Test
    void aSoldOutPlainPurchaseFlagsThePathRouteToo() {
        fixture.upstream().answer(soldOut(62));

        assertEquals(410, purchase(fixture.edge(), 62, null, "10.15.1.1").status());

        for (int i = 0; i < FLAGGED; i++) {
            assertAnsweredSoldOut(62, purchase(fixture.edge(), 62, PATH_A, "10.15.1.2"));
        }
        assertEquals(1, purchasesReaching(62));
    }

    @Test
    void anOperatorsFlagAnswersThePathRouteAndTheSteps() {
        assertEquals(200, http.send("PUT", fixture.url("/edge/flags/sold-out/63?ttl=60"), null).status());

        assertAnsweredSoldOut(63, purchase(fixture.edge(), 63, PATH_A, "10.15.2.1"));
        assertAnsweredSoldOut(63, challenge(fixture.edge(), 63, "10.15.2.1"));
        assertAnsweredSoldOut(63, pathStep(fixture.edge(), 63, "10.15.2.1"));

        assertEquals(0, fixture.upstream().hits(h -> h.path().startsWith("/api/sales/63/")));
        http.send("DELETE", fixture.url("/edge/flags/sold-out/63"), null);
    }

    /**
     * Once the fresh mark runs out, challenge and path go to the service again while the flag is still held: only a
     * purchase with a path can tell that stock is back (a protected sale refuses a pathless one before Redis), so
     * the steps must let a shopper get that path, and must not spend the flag's re-check themselves.
     */
    @Test
    void theStepsReachTheServiceOnceTheFlagIsStaleAndOnlyAPathPurchaseReChecksIt() {
        try (EdgeInstance shortTtl = fixture.another("protected-routes-ttl", "SECKILL_EDGE_SOLDOUT_TTL", "2")) {
            fixture.upstream().answer(soldOut(64));
            assertEquals(410, purchase(shortTtl, 64, PATH_A, "10.15.3.1").status());
            fixture.upstream().answer(ProtectedRoutesEdgeIT::open); // restocked; the service's clear call was lost
            assertAnsweredSoldOut(64, challenge(shortTtl, 64, "10.15.3.2"));

            Await.until(Duration.ofSeconds(10), () -> challenge(shortTtl, 64, "10.15.3.2").status() == 200,
                    "the challenge to reach the service once the flag is stale");
            assertEquals(200, pathStep(shortTtl, 64, "10.15.3.2").status());

            JsonNode flag = http.get(shortTtl.url("/edge/flags/sold-out/64")).json();
            assertTrue(flag.path("held").asBoolean(), "the steps left the flag held, its re-check unclaimed: " + flag);
            assertEquals(1, purchasesReaching(64));

            HttpJson.Response recheck = purchase(shortTtl, 64, PATH_A, "10.15.3.2");
            assertEquals(202, recheck.status(), recheck.body());
            assertEquals(2, purchasesReaching(64), "the path purchase was the flag's re-check");
            assertFalse(http.get(shortTtl.url("/edge/flags/sold-out/64")).json().path("soldOut").asBoolean(),
                    "the service's 202 ended the flag");
            assertEquals(202, purchase(shortTtl, 64, PATH_B, "10.15.3.3").status(), "purchases reach it again");
        }
    }

    /**
     * One client, one purchase bucket for both routes (1 request a minute, burst 4, so the counts are exact), and the
     * two steps before a purchase have a bucket of their own at the read rate: solving does not spend the purchase
     * allowance, and a client cannot fetch challenges without limit either.
     */
    @Test
    void pathAndPlainPurchasesShareOneLimitAndTheStepsHaveTheirOwn() {
        try (EdgeInstance limited = fixture.another("protected-routes-limits",
                "SECKILL_EDGE_RATE", "1r/m", "SECKILL_EDGE_BURST", Integer.toString(BURST),
                "SECKILL_EDGE_READ_RATE", "1r/m", "SECKILL_EDGE_READ_BURST", Integer.toString(READ_BURST))) {
            fixture.upstream().answer(ProtectedRoutesEdgeIT::open);
            String client = "10.15.4.1";

            List<HttpJson.Response> steps = new ArrayList<>();
            for (int i = 0; i < READ_BURST + 3; i++) {
                steps.add(i % 2 == 0 ? challenge(limited, 65, client) : pathStep(limited, 65, client));
            }
            steps.subList(0, READ_BURST + 1).forEach(r -> assertEquals(200, r.status(), r.body()));
            steps.subList(READ_BURST + 1, steps.size()).forEach(r -> assertRateLimited(r, 60, READ_BURST + 1, 120));

            List<HttpJson.Response> purchases = new ArrayList<>();
            for (int i = 0; i < BURST + 5; i++) {
                purchases.add(purchase(limited, 65, i % 2 == 0 ? PATH_A : null, client));
            }
            purchases.subList(0, BURST + 1).forEach(r -> assertEquals(202, r.status(), r.body()));
            purchases.subList(BURST + 1, purchases.size()).forEach(r -> assertRateLimited(r, 60, BURST + 1, 240));
            assertEquals(BURST + 1, purchasesReaching(65), "refused purchases of either route never reach the service");

            assertEquals(202, purchase(limited, 65, PATH_B, "10.15.4.2").status(), "another client's bucket is full");
        }
    }

    @Test
    void aPathSegmentOutsideTheTokensCharsetIsNoRoute() {
        String tooLong = "a".repeat(65);
        for (String path : new String[] {"a.b", "a~b", tooLong, "", "p/q"}) {
            HttpJson.Response r = http.post(fixture.url("/api/sales/66/purchase/" + path), null, from("10.15.5.1"));
            assertEquals(404, r.status(), path + ": " + r.body());
            assertEquals("NOT_FOUND", r.code(), r.body());
        }
        // An escaped slash is refused before any location, like every path not in its plain form.
        HttpJson.Response escaped = http.post(fixture.url("/api/sales/66/purchase/a%2Fb"), null, from("10.15.5.1"));
        assertEquals(400, escaped.status(), escaped.body());
        assertEquals("BAD_REQUEST", escaped.code(), escaped.body());
        assertEquals(0, purchasesReaching(66), "none reached the service");

        purchase(fixture.edge(), 66, "a".repeat(64), "10.15.5.1");
        assertEquals(1, fixture.upstream().hits("/api/sales/66/purchase/" + "a".repeat(64)), "64 characters do");
    }

    private long shortCircuits() {
        for (String line : fixture.metrics(http).split("\n")) {
            if (line.startsWith("seckill_edge_sold_out_short_circuits_total")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
