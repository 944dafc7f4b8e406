package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the edge exposes and how (issue 5): the API and health proxied with the client's address and a request
 * id, the purchase body capped, /admin hidden, unknown routes and malformed requests answered with JSON, the
 * repository's sale page served, counters at /edge/metrics.
 */
class EdgeRoutingIT {

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("routing", "SECKILL_EDGE_BODY_MAX", "1k");
    private final HttpJson http = new HttpJson();

    @Test
    void unknownRoutesAre404Json() {
        for (String path : new String[] {"/nope", "/observe/metrics", "/edge/unknown", "/edge/bench"}) {
            HttpJson.Response r = http.get(fixture.url(path));
            assertEquals(404, r.status(), path);
            assertTrue(r.header("Content-Type").startsWith("application/json"), path);
            assertEquals("NOT_FOUND", r.code(), path);
        }
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

    @Test
    void healthIsProxiedAndTheEdgeHasItsOwn() {
        HttpJson.Response service = http.get(fixture.url("/observe/health"));
        HttpJson.Response own = http.get(fixture.url("/edge/health"));

        assertEquals(200, service.status());
        assertEquals("/observe/health", service.json().path("path").asText(), "answered by the upstream");
        assertEquals(200, own.status());
        assertEquals("UP", own.json().path("status").asText());
    }

    @Test
    void theRepositorysSalePageIsServed() {
        HttpJson.Response page = http.get(fixture.url("/"));

        assertEquals(200, page.status());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertEquals("no-cache", page.header("Cache-Control"));
    }

    @Test
    void malformedRequestsGetJsonNeverHtml() throws IOException {
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
            String answer = rawExchange(e.getKey());
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

    /** Sends bytes no HTTP client would (with Connection: close semantics), and reads the whole answer. */
    private static String rawExchange(String request) throws IOException {
        URI base = URI.create(fixture.url("/"));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // End of request: the edge answers, then closes a connection whose client has nothing more to send.
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }
}
