package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the edge exposes and how (issues 5 and 12): the listed API routes and /api/health proxied with the client's
 * address and a request id, the purchase body capped, /admin and /observe hidden, ids in one spelling, paths only in
 * their plain form, unknown routes and malformed requests answered with JSON carrying the request id, the
 * repository's sale page served, counters at /edge/metrics. The probe suite (system.security) tries the tricks.
 */
class EdgeRoutingIT {

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("routing");
    private final HttpJson http = new HttpJson();

    @Test
    void unknownRoutesAre404Json() {
        String[] paths = {"/nope", "/observe/metrics", "/observe/health", "/edge/unknown", "/edge/bench",
            "/api/nope", "/api/sales/1/purchase/", "/api/sales/", "/api/orders"};
        for (String path : paths) {
            HttpJson.Response r = http.get(fixture.url(path), from("10.5.1.1"));
            assertEquals(404, r.status(), path);
            assertTrue(r.header("Content-Type").startsWith("application/json"), path);
            assertEquals("NOT_FOUND", r.code(), path);
        }
        assertEquals(0, hitsFrom("10.5.1.1"), "routes the edge does not list reached the service");
    }

    @Test
    void otherSpellingsOfAnIdAreNotFoundAtTheEdge() {
        for (String id : new String[] {"+1", "01", "-1", "1e3", "0", "12345678901234567890", "abc"}) {
            HttpJson.Response read = http.get(fixture.url("/api/sales/" + id), from("10.5.1.2"));
            HttpJson.Response purchase = http.post(fixture.url("/api/sales/" + id + "/purchase"), null,
                    from("10.5.1.2"));
            HttpJson.Response order = http.get(fixture.url("/api/orders/" + id), from("10.5.1.2"));

            assertEquals(404, read.status(), id);
            assertEquals("SALE_NOT_FOUND", read.code(), id);
            assertEquals(404, purchase.status(), id);
            assertEquals("SALE_NOT_FOUND", purchase.code(), id);
            assertEquals(404, order.status(), id);
            assertEquals("ORDER_NOT_FOUND", order.code(), id);
        }
        assertEquals(0, hitsFrom("10.5.1.2"), "a malformed id reached the service");
        // 19 digits is the longest id; the service decides whether it fits in a long.
        assertEquals(200, http.get(fixture.url("/api/sales/9223372036854775807")).status());
    }

    @Test
    void pathsNotInTheirPlainFormAre400ForEveryLocation() {
        String[] paths = {"/api/sales/1;x", "/index.html;x", "/edge/health;x", "/assets/x.0123abcd.css;x",
            "/api/sales/%31", "/%61pi/sales/1", "/api/sales/1/./purchase", "/api/sales/2/../1", "//api/sales/1",
            "/edge/flags/..", "/_edge/error;x"};
        for (String path : paths) {
            RawHttp.Answer r = RawHttp.exchange(fixture.edge().port(),
                    RawHttp.request("GET", path, from("10.5.1.3")), false);
            assertEquals(400, r.status(), path + " -> " + r.raw());
            assertTrue(r.header("Content-Type").startsWith("application/json"), path);
            assertTrue(r.body().startsWith("{\"code\":\"BAD_REQUEST\""), path + " -> " + r.body());
        }
        assertEquals(0, hitsFrom("10.5.1.3"), "a path not in its plain form reached the service");
    }

    @Test
    void theQueryStringIsNotThePath() {
        HttpJson.Response r = http.get(fixture.url("/api/orders/5?x=/../admin;%2e"), from("10.5.0.3"));

        assertEquals(200, r.status(), r.body());
        UpstreamStub.Hit hit = fixture.upstream().last("/api/orders/5");
        assertEquals("x=/../admin;%2e", hit.query());
    }

    @Test
    void errorBodiesCarryTheRequestIdTheServiceWouldHaveSeen() {
        HttpJson.Response given = http.get(fixture.url("/api/nope"), "X-Request-Id", "req-404");
        HttpJson.Response minted = http.get(fixture.url("/api/nope"));
        HttpJson.Response forged = http.get(fixture.url("/api/nope"), "X-Request-Id", "<script>");

        assertEquals("req-404", given.json().path("requestId").asText(), given.body());
        assertTrue(minted.json().path("requestId").asText().matches("[0-9a-f]{32}"), minted.body());
        assertTrue(forged.json().path("requestId").asText().matches("[0-9a-f]{32}"), forged.body());
        assertEquals("no such route", forged.json().path("message").asText(), "a fixed message: " + forged.body());
    }

    @Test
    void adminRoutesAreNotExposed() {
        HttpJson.Response list = http.get(fixture.url("/admin/sales/1/stats"));
        HttpJson.Response create = http.post(fixture.url("/admin/sales"), "{\"name\":\"x\"}");
        HttpJson.Response bare = http.get(fixture.url("/admin"));

        for (HttpJson.Response r : new HttpJson.Response[] {list, create, bare}) {
            assertEquals(404, r.status(), r.body());
            assertEquals("NOT_FOUND", r.code(), r.body());
        }
        assertEquals(0, fixture.upstream().hits(h -> h.path().startsWith("/admin")),
                "admin requests reached the service");
    }

    @Test
    void oversizedPurchaseBodyIs413Json() {
        String big = "{\"pad\":\"" + "x".repeat(2048) + "\"}";
        String small = "{\"quantity\":1}";

        HttpJson.Response refused = http.post(fixture.url("/api/sales/11/purchase"), big, from("10.5.0.1"));
        HttpJson.Response accepted = http.post(fixture.url("/api/sales/12/purchase"), small, from("10.5.0.1"));

        assertEquals(413, refused.status(), refused.body());
        assertEquals("PAYLOAD_TOO_LARGE", refused.code());
        assertEquals(0, fixture.upstream().hits("/api/sales/11/purchase"));
        assertEquals(202, accepted.status(), accepted.body());
        assertEquals(small, fixture.upstream().last("/api/sales/12/purchase").body());
    }

    @Test
    void clientAddressAndRequestIdAreForwarded() {
        http.post(fixture.url("/api/sales/13/purchase"), null, from("198.51.100.7", "X-Request-Id", "req-123"));
        http.post(fixture.url("/api/sales/14/purchase"), null, from("198.51.100.8"));

        UpstreamStub.Hit given = fixture.upstream().last("/api/sales/13/purchase");
        UpstreamStub.Hit minted = fixture.upstream().last("/api/sales/14/purchase");
        assertEquals("198.51.100.7", given.header("X-Forwarded-For"));
        assertEquals("req-123", given.header("X-Request-Id"));
        assertEquals("198.51.100.8", minted.header("X-Forwarded-For"));
        assertTrue(minted.header("X-Request-Id").matches("[0-9a-f]{32}"), minted.header("X-Request-Id"));
    }

    /** The service's share of the deadline (SECKILL_DEADLINE_MS 8000 by default, less 1000 ms), never the client's. */
    @Test
    void theServiceIsGivenItsShareOfTheDeadlineAndNoClientsOwn() {
        http.post(fixture.url("/api/sales/15/purchase"), null, from("198.51.100.9", "X-Seckill-Budget-Ms", "60000"));
        http.get(fixture.url("/api/orders/15"), from("198.51.100.9"));
        assertEquals("7000", fixture.upstream().last("/api/sales/15/purchase").header("X-Seckill-Budget-Ms"));
        assertEquals("7000", fixture.upstream().last("/api/orders/15").header("X-Seckill-Budget-Ms"));
    }

    @Test
    void publicHealthIsTheServicesApiHealthCachedAndTheEdgeHasItsOwn() {
        HttpJson.Response service = http.get(fixture.url("/api/health"));
        for (int i = 0; i < 5; i++) {
            assertEquals(200, http.get(fixture.url("/api/health?r=" + i)).status());
        }
        HttpJson.Response own = http.get(fixture.url("/edge/health"));
        HttpJson.Response detailed = http.get(fixture.url("/observe/health"));

        assertEquals(200, service.status());
        assertEquals("/api/health", service.json().path("path").asText(), "answered by the upstream");
        assertTrue(fixture.upstream().hits("/api/health") <= 2, "micro-cached, whatever the query: "
                + fixture.upstream().hits("/api/health") + " of 6 reached the service");
        assertEquals(200, own.status());
        assertEquals("UP", own.json().path("status").asText());
        assertEquals(404, detailed.status(), detailed.body());
        assertEquals(0, fixture.upstream().hits("/observe/health"));
    }

    @Test
    void theRepositorysSalePageIsServed() {
        HttpJson.Response page = http.get(fixture.url("/"));

        assertEquals(200, page.status());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertEquals("no-cache", page.header("Cache-Control"));
    }

    @Test
    void malformedRequestsGetJsonNeverHtml() {
        HttpJson.Response post = http.post(fixture.url("/index.html"), "{}");
        assertEquals(405, post.status());
        assertEquals("METHOD_NOT_ALLOWED", post.code());

        String host = "Host: 127.0.0.1\r\n";
        Map<String, String> expected = Map.of(
                "GARBAGE\r\n\r\n", "400 BAD_REQUEST",
                "GET /" + "a".repeat(9000) + " HTTP/1.1\r\n" + host + "\r\n", "414 BAD_REQUEST",
                "GET / HTTP/1.1\r\n" + host + "X-Big: " + "b".repeat(20000) + "\r\n\r\n", "400 BAD_REQUEST",
                "GET /api/sales HTTP/9.9\r\n" + host + "\r\n", "505 HTTP_VERSION_NOT_SUPPORTED",
                "POST /api/sales/1/purchase HTTP/1.1\r\n" + host + "Content-Length: 5\r\nContent-Length: 7\r\n\r\n12345",
                "400 BAD_REQUEST",
                "POST /api/sales/1/purchase HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\n",
                "501 NOT_IMPLEMENTED",
                "GET /index.html HTTP/1.1\r\n" + host + "Range: bytes=999999-\r\n\r\n", "416 RANGE_NOT_SATISFIABLE");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String answer = RawHttp.exchange(fixture.edge().port(),
                    e.getKey().getBytes(StandardCharsets.US_ASCII), true).raw();
            String[] statusAndCode = e.getValue().split(" ");
            String what = e.getKey().substring(0, Math.min(40, e.getKey().length())) + " -> " + answer;
            assertTrue(answer.startsWith("HTTP/1.1 " + statusAndCode[0]), what);
            assertTrue(answer.contains("Content-Type: application/json"), what);
            assertTrue(answer.contains("\r\n\r\n{\"code\":\"" + statusAndCode[1] + "\""), what);
        }
    }

    @Test
    void metricsCountRequestsByRouteAndStatus() {
        http.post(fixture.url("/api/sales/15/purchase"), null, from("10.5.0.2"));
        http.send("PUT", fixture.url("/edge/flags/sold-out/16"), null);
        http.post(fixture.url("/api/sales/16/purchase"), null, from("10.5.0.2"));

        HttpJson.Response r = http.get(fixture.url("/edge/metrics"));

        assertEquals(200, r.status());
        assertTrue(r.header("Content-Type").startsWith("text/plain"), r.header("Content-Type"));
        String text = r.body();
        assertTrue(text.contains("# TYPE seckill_edge_requests_total counter"), text);
        assertTrue(text.contains("seckill_edge_requests_total{route=\"purchase\",status=\"202\"}"), text);
        assertTrue(text.contains("seckill_edge_requests_total{route=\"purchase\",status=\"410\"}"), text);
        assertTrue(text.contains("seckill_edge_sold_out_short_circuits_total 1"), text);
        assertTrue(text.contains("seckill_edge_sold_out_flags_set_total{source=\"admin\"} 1"), text);
        assertTrue(text.contains("seckill_edge_sold_out_flags 1"), text);
    }

    private static long hitsFrom(String client) {
        return fixture.upstream().hits(h -> client.equals(h.header("X-Forwarded-For")));
    }
}
