package dev.seckill.system.edge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sold-out short-circuit: the service's SOLD_OUT (or SALE_ENDED) answer sets a per-sale flag
 * at the edge, and while it is set the edge answers purchases of that sale itself with the same 410 body; an admin
 * clear, or a re-check the service accepts, reopens the sale to the service. The re-checks under a flood are in
 * dev.seckill.system.protection.FlagRecheckIT. Each test uses its own sale ids.
 */
class EdgeSoldOutIT {

    private static final int FLAGGED_PURCHASES = 25;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("sold-out");
    private final HttpJson http = new HttpJson();

    /** The service's exact SOLD_OUT answer (body and header) for one sale, anything else as the default stub. */
    private static UpstreamStub.Responder soldOut(long saleId) {
        String path = "/api/sales/" + saleId + "/purchase";
        return hit -> hit.path().equals(path)
                ? UpstreamStub.Reply.json(410, soldOutBody(saleId), "X-Seckill-Sold-Out", "1")
                : UpstreamStub.DEFAULT.answer(hit);
    }

    private static String soldOutBody(long saleId) {
        return "{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"saleId\":" + saleId + "}";
    }

    private HttpJson.Response purchase(EdgeInstance target, long saleId) {
        return http.post(target.url("/api/sales/" + saleId + "/purchase"), null, from("10.2.0.1"));
    }

    @Test
    void soldOutFromTheServiceIsAnsweredAtTheEdgeWithoutReachingIt() {
        fixture.upstream().answer(soldOut(42));
        String path = "/api/sales/42/purchase";

        HttpJson.Response first = purchase(fixture.edge(), 42);
        assertEquals(410, first.status(), first.body());
        assertEquals(1, fixture.upstream().hits(path));

        for (int i = 0; i < FLAGGED_PURCHASES; i++) {
            HttpJson.Response r = purchase(fixture.edge(), 42);
            assertEquals(410, r.status(), r.body());
            assertEquals(soldOutBody(42), r.body(), "the edge answers the service's very body");
            assertEquals("1", r.header("X-Seckill-Sold-Out"));
            assertTrue(r.header("Content-Type").startsWith("application/json"), r.header("Content-Type"));
        }
        assertEquals(1, fixture.upstream().hits(path), "flagged purchases must never reach the service");
        // The series exists at 0 from the edge's start: counted means above 0.
        assertTrue(fixture.metrics(http).matches("(?s).*\nseckill_edge_sold_out_short_circuits_total [1-9].*"),
                "counted");
    }

    @Test
    void theFlagTakesTheConfiguredTtl() {
        fixture.upstream().answer(soldOut(46));
        assertEquals(410, purchase(fixture.edge(), 46).status());

        JsonNode flag = http.get(fixture.url("/edge/flags/sold-out/46")).json();

        assertTrue(flag.path("soldOut").asBoolean(), flag.toString());
        assertEquals("SOLD_OUT", flag.path("code").asText(), flag.toString());
        assertTrue(flag.path("held").asBoolean(), "learned from the service, so re-checked: " + flag);
        double ttl = flag.path("ttlSeconds").asDouble();
        assertTrue(ttl > 0 && ttl <= 30, "SECKILL_EDGE_SOLDOUT_TTL=30 but ttl " + ttl);
        assertEquals(30, http.get(fixture.url("/edge/flags")).json().path("defaultTtlSeconds").asInt());
    }

    @Test
    void adminDeleteReopensTheSaleToTheService() {
        fixture.upstream().answer(soldOut(43));
        String path = "/api/sales/43/purchase";
        assertEquals(410, purchase(fixture.edge(), 43).status());
        fixture.upstream().answer(UpstreamStub.DEFAULT); // restocked
        assertEquals(410, purchase(fixture.edge(), 43).status(), "still flagged at the edge");
        assertEquals(1, fixture.upstream().hits(path));

        HttpJson.Response cleared = http.send("DELETE", fixture.url("/edge/flags/sold-out/43"), null);
        assertEquals(200, cleared.status(), cleared.body());
        assertTrue(cleared.json().path("cleared").asBoolean(), cleared.body());

        assertEquals(202, purchase(fixture.edge(), 43).status());
        assertEquals(2, fixture.upstream().hits(path));
        HttpJson.Response again = http.send("DELETE", fixture.url("/edge/flags/sold-out/43"), null);
        assertFalse(again.json().path("cleared").asBoolean(), "clearing is idempotent: " + again.body());
    }

    @Test
    void aRecheckTheServiceAcceptsClearsTheFlag() {
        try (EdgeInstance shortTtl = fixture.another("sold-out-ttl", "SECKILL_EDGE_SOLDOUT_TTL", "2")) {
            fixture.upstream().answer(soldOut(44));
            String path = "/api/sales/44/purchase";
            assertEquals(410, purchase(shortTtl, 44).status());
            fixture.upstream().answer(UpstreamStub.DEFAULT); // restocked, and the service's clear call was lost
            long flaggedAt = System.nanoTime();

            // Flagged purchases are answered at the edge until the interval runs out; then one goes to the service
            // as the flag's re-check, and its 202 (stock is back) ends the flag.
            Await.until(Duration.ofSeconds(10), () -> purchase(shortTtl, 44).status() == 202,
                    "the flag's re-check to reach the service");

            assertEquals(2, fixture.upstream().hits(path), "exactly one purchase reached the service as the re-check");
            long heldMs = Duration.ofNanos(System.nanoTime() - flaggedAt).toMillis();
            assertTrue(heldMs >= 1000, "a 2 s interval was over after only " + heldMs + " ms");
            assertFalse(http.get(shortTtl.url("/edge/flags/sold-out/44")).json().path("soldOut").asBoolean());
            assertEquals(202, purchase(shortTtl, 44).status(), "cleared: purchases go to the service again");
        }
    }

    @Test
    void saleEndedSetsAFlagThatAnswersTheServicesBody() {
        String path = "/api/sales/45/purchase";
        String ended = "{\"code\":\"SALE_ENDED\",\"saleId\":45,\"message\":\"the sale is over\"}";
        fixture.upstream().answer(hit -> hit.path().equals(path)
                ? UpstreamStub.Reply.json(410, ended)
                : UpstreamStub.DEFAULT.answer(hit));

        HttpJson.Response first = purchase(fixture.edge(), 45);
        HttpJson.Response flagged = purchase(fixture.edge(), 45);

        assertEquals(410, first.status(), first.body());
        assertEquals(1, fixture.upstream().hits(path), "the SALE_ENDED answer set a flag");
        assertEquals(410, flagged.status(), flagged.body());
        assertEquals(ended, flagged.body(), "the edge answers the service's very body");
        assertNull(flagged.header("X-Seckill-Sold-Out"), "the sold-out header only on SOLD_OUT");
        JsonNode flag = http.get(fixture.url("/edge/flags/sold-out/45")).json();
        assertEquals("SALE_ENDED", flag.path("code").asText(), flag.toString());
        assertFalse(flag.path("soldOut").asBoolean(), flag.toString());
        boolean listed = false;
        for (JsonNode f : http.get(fixture.url("/edge/flags")).json().path("flags")) {
            listed |= f.path("saleId").asLong() == 45 && f.path("type").asText().equals("ended");
        }
        assertTrue(listed, "listed as an ended flag");
        http.send("DELETE", fixture.url("/edge/flags/sold-out/45"), null);
    }

    @Test
    void otherAnswersDoNotSetAFlag() {
        String path = "/api/sales/47/purchase";
        fixture.upstream().answer(hit -> hit.path().equals(path)
                ? UpstreamStub.Reply.json(409, "{\"code\":\"ALREADY_PURCHASED\",\"saleId\":47,\"orderId\":\"1\"}")
                : UpstreamStub.DEFAULT.answer(hit));

        assertEquals(409, purchase(fixture.edge(), 47).status());
        assertEquals(409, purchase(fixture.edge(), 47).status());

        assertEquals(2, fixture.upstream().hits(path), "only a 410 sets a flag");
    }

    @Test
    void adminPutSetsAFlagTheListShowsAndPurchasesObey() {
        HttpJson.Response put = http.send("PUT", fixture.url("/edge/flags/sold-out/77?ttl=60"), null);
        assertEquals(200, put.status(), put.body());
        assertEquals(60, put.json().path("ttlSeconds").asInt(), put.body());

        JsonNode list = http.get(fixture.url("/edge/flags")).json();
        JsonNode flag = null;
        for (JsonNode f : list.path("flags")) {
            if (f.path("saleId").asLong() == 77) {
                flag = f;
            }
        }
        assertTrue(flag != null && flag.path("ttlSeconds").asDouble() <= 60, list.toString());
        assertEquals("sold-out", flag.path("type").asText());
        assertFalse(flag.path("held").asBoolean(), "an operator's flag ends at its TTL, without re-checks: " + flag);

        HttpJson.Response r = http.post(fixture.url("/api/sales/77/purchase"), null, from("10.2.0.2"));
        assertEquals(410, r.status(), r.body());
        assertEquals(soldOutBody(77), r.body());
        // An id has one spelling: "077" is no sale at all, so no purchase of 77 can dodge the flag.
        HttpJson.Response zeros = http.post(fixture.url("/api/sales/077/purchase"), null, from("10.2.0.2"));
        assertEquals(404, zeros.status(), zeros.body());
        assertEquals("SALE_NOT_FOUND", zeros.code(), zeros.body());
        assertEquals(0, fixture.upstream().hits(h -> h.path().matches("/api/sales/0*77/purchase")));
        assertEquals(400, http.get(fixture.url("/edge/flags/sold-out/0077")).status());
        http.send("DELETE", fixture.url("/edge/flags/sold-out/77"), null);
    }

    @Test
    void adminRejectsBadInputWithJson() {
        HttpJson.Response zeroTtl = http.send("PUT", fixture.url("/edge/flags/sold-out/78?ttl=0"), null);
        HttpJson.Response badId = http.send("PUT", fixture.url("/edge/flags/sold-out/abc"), null);
        HttpJson.Response badMethod = http.send("POST", fixture.url("/edge/flags/sold-out/78"), "{}");

        assertEquals(400, zeroTtl.status(), zeroTtl.body());
        assertEquals("BAD_REQUEST", zeroTtl.code());
        assertEquals(400, badId.status(), badId.body());
        assertEquals("BAD_REQUEST", badId.code());
        assertEquals(405, badMethod.status(), badMethod.body());
        assertEquals("METHOD_NOT_ALLOWED", badMethod.code());
        assertFalse(http.get(fixture.url("/edge/flags/sold-out/78")).json().path("soldOut").asBoolean());
    }

    @Test
    void adminAndMetricsAreLoopbackOnly() {
        // A request a trusted proxy forwards for an outside client is not loopback.
        String[] outside = from("203.0.113.7");

        HttpJson.Response put = http.send("PUT", fixture.url("/edge/flags/sold-out/79"), null, outside);
        HttpJson.Response list = http.get(fixture.url("/edge/flags"), outside);
        HttpJson.Response metrics = http.get(fixture.url("/edge/metrics"), outside);

        for (HttpJson.Response r : new HttpJson.Response[] {put, list, metrics}) {
            assertEquals(404, r.status(), r.body());
            assertEquals("NOT_FOUND", r.code());
        }
        assertFalse(http.get(fixture.url("/edge/flags/sold-out/79")).json().path("soldOut").asBoolean());
    }

    /**
     * The operator routes are decided by the socket's own peer and the absence of forwarding, never by the
     * address X-Forwarded-For yields. This edge believes X-Forwarded-For from 127.0.0.1 (the tests' socket), so a
     * forwarded "127.0.0.1" would make the client address loopback; it must not open the routes, with or without
     * the trust.
     */
    @Test
    void aForwardedLoopbackAddressDoesNotOpenTheOperatorRoutes() {
        try (EdgeInstance untrusting = fixture.another("sold-out-untrusting", "SECKILL_EDGE_TRUSTED_PROXIES", "")) {
            for (EdgeInstance target : new EdgeInstance[] {fixture.edge(), untrusting}) {
                for (String path : new String[] {"/edge/flags", "/edge/metrics", "/edge/health", "/edge/bench/ok"}) {
                    assertEquals(200, http.get(target.url(path)).status(), "direct " + path);
                    for (String forwarded : new String[] {"127.0.0.1", "::1", "127.0.0.1, 127.0.0.1"}) {
                        HttpJson.Response r = http.get(target.url(path), from(forwarded));
                        assertEquals(404, r.status(), path + " forwarded for " + forwarded + ": " + r.body());
                    }
                }
                HttpJson.Response put =
                        http.send("PUT", target.url("/edge/flags/sold-out/81"), null, from("127.0.0.1"));
                assertEquals(404, put.status(), put.body());
                assertFalse(http.get(target.url("/edge/flags/sold-out/81")).json().path("soldOut").asBoolean());
            }
        }
    }

    @Test
    void flagsSurviveAReload() {
        try (EdgeInstance reloaded = fixture.another("sold-out-reload")) {
            assertEquals(200, http.send("PUT", reloaded.url("/edge/flags/sold-out/80?ttl=120"), null).status());

            reloaded.reload(Map.of("SECKILL_EDGE_SOLDOUT_TTL", "12"));
            // The new workers serve once the rendered default TTL shows.
            Await.until(Duration.ofSeconds(20), () -> http.get(reloaded.url("/edge/flags")).json()
                    .path("defaultTtlSeconds").asInt() == 12, "the reloaded config to serve");

            HttpJson.Response r = purchase(reloaded, 80);
            assertEquals(410, r.status(), r.body());
            assertEquals(0, fixture.upstream().hits("/api/sales/80/purchase"));
        }
    }
}
