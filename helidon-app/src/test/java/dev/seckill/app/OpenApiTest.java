package dev.seckill.app;

import dev.seckill.config.TestConfig;
import dev.seckill.testkit.ApiContract;
import dev.seckill.testkit.RawHttp;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAPI document is served by both listeners at /openapi, is the repository's very document, and
 * the test kit's check rejects an answer the document does not describe.
 */
@ServerTest
class OpenApiTest {

    private static final FakeApi API = new FakeApi();

    private final int publicPort;
    private final int adminPort;

    OpenApiTest(WebServer server) {
        this.publicPort = server.port();
        this.adminPort = server.port(Listeners.ADMIN);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        Listeners.apply(server, TestConfig.keys(Map.of("admin.port", "0")).get("admin"), API.routes, List.of());
    }

    @Test
    void bothListenersServeTheRepositoryDocumentAsYamlAndAsJson() throws Exception {
        JsonNode expected = ApiContract.get().document();
        assertEquals("3.1.0", expected.path("openapi").asText(), "the repository's document is OpenAPI 3.1.0");
        for (int port : new int[] {publicPort, adminPort}) {
            RawHttp.Answer yaml = RawHttp.send(port, "GET", "/openapi");
            assertEquals(200, yaml.status(), yaml.head());
            assertEquals(expected, YAMLMapper.builder().build().readTree(yaml.body()), "served YAML on " + port);
            RawHttp.Answer json = RawHttp.send(port, "GET", "/openapi", "Accept", "application/json");
            assertEquals(200, json.status(), json.head());
            assertEquals(expected, JsonMapper.builder().build().readTree(json.body()), "served JSON on " + port);
        }
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeFailsTheCheck() {
        // A status the purchase does not list, a code its 410 does not carry, a field the sale has not, no Location.
        assertFails("POST", "/api/sales/1/purchase", 418, "{\"code\":\"OK\"}", Map.of());
        assertFails("POST", "/api/sales/1/purchase", 410, "{\"code\":\"NOT_FOUND\",\"message\":\"m\"}", Map.of());
        assertFails("GET", "/api/sales/1", 200, "{\"id\":1,\"extra\":true}", Map.of());
        assertFails("POST", "/api/sales/1/purchase", 202,
                "{\"code\":\"QUEUED\",\"orderId\":\"7\",\"saleId\":1,\"message\":\"m\"}", Map.of());
        // And the same answer with its header passes.
        ApiContract.check("POST", "/api/sales/1/purchase", 202, header(Map.of("Location", "/api/orders/7")),
                "{\"code\":\"QUEUED\",\"orderId\":\"7\",\"saleId\":1,\"message\":\"m\"}");
    }

    private static void assertFails(String method, String path, int status, String body, Map<String, String> h) {
        AssertionError e = assertThrows(AssertionError.class, () -> ApiContract.check(method, path, status,
                header(h), body));
        assertTrue(e.getMessage().contains("OpenAPI"), e.getMessage());
    }

    private static java.util.function.Function<String, String> header(Map<String, String> h) {
        Map<String, String> all = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        all.put("Content-Type", "application/json");
        all.putAll(h);
        return all::get;
    }
}
