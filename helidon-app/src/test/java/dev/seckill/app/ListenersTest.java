package dev.seckill.app;

import dev.seckill.config.TestConfig;
import dev.seckill.health.Probes;
import dev.seckill.testkit.RawHttp;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two listeners, on real ports: the public one serves {@code /api/**} only, and no spelling of an admin or
 * observe path reaches the admin listener's routes through it ({@code /api/x/..;/..;/admin/...} answered
 * the sale's stats on the public port).
 */
@ServerTest
class ListenersTest {

    private static final FakeApi API = new FakeApi();

    private final int publicPort;
    private final int adminPort;

    ListenersTest(WebServer server) {
        this.publicPort = server.port();
        this.adminPort = server.port(Listeners.ADMIN);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        HealthObserver health = HealthObserver.builder().details(true).useSystemServices(false)
                .addCheck(Probes.check(() -> true), HealthCheckType.READINESS, "redis").build();
        Listeners.apply(server, TestConfig.keys(Map.of("admin.port", "0")).get("admin"), API.routes,
                List.of(health, MetricsObserver.builder().build()));
    }

    private RawHttp.Answer onPublic(String target) {
        return RawHttp.send(publicPort, "GET", target, "Authorization", "Bearer " + API.signer.mint(1));
    }

    @Test
    void thePublicHealthAnswerIsUpWithoutDetails() {
        RawHttp.Answer r = onPublic("/api/health");
        assertEquals(200, r.status());
        assertEquals("{\"code\":\"UP\"}", r.body());
    }

    @Test
    void theAdminListenerServesAdminRoutesAndDetailedHealthAndMetrics() {
        // The admin routes here are a stub (ADMIN_REACHED) no contract describes.
        assertTrue(RawHttp.sendUnchecked(adminPort, "GET", "/admin/sales/1/stats").body().contains("ADMIN_REACHED"));
        RawHttp.Answer health = RawHttp.send(adminPort, "GET", "/observe/health");
        assertEquals(200, health.status(), health.body());
        assertTrue(health.body().contains("redis"), "details on the internal listener: " + health.body());
        assertEquals(200, RawHttp.send(adminPort, "GET", "/observe/metrics").status());
        assertEquals(404, RawHttp.send(adminPort, "GET", "/api/sales/1").status(), "the API is not served there");
    }

    @Test
    void adminAndObservePathsOnThePublicListenerAre404Json() {
        for (String path : new String[]{"/admin/sales/1/stats", "/observe/health", "/observe/metrics", "/admin",
                "/observe"}) {
            RawHttp.Answer r = onPublic(path);
            assertEquals(404, r.status(), path);
            assertTrue(String.valueOf(r.header("Content-Type")).startsWith("application/json"), path + ": " + r.head());
            assertTrue(r.body().contains("\"NOT_FOUND\""), path + ": " + r.body());
        }
    }

    @Test
    void pathTricksOnThePublicListenerNeverReachAdminOrMetrics() {
        String[] tricks = {
            "/api/x/..;/..;/admin/sales/1/stats", "/api/x/..;/..;/observe/metrics", "/api/x/..;/..;/observe/health",
            "/api/x/%2e%2e/%2e%2e/admin/sales/1/stats", "/api/x/%2E%2E/%2E%2E/admin/sales/1/stats",
            "/api/x/%252e%252e/%252e%252e/admin/sales/1/stats", "/api/../admin/sales/1/stats",
            "/api/x/../../admin/sales/1/stats", "/api/x/..%2f..%2fadmin/sales/1/stats", "/api/x/..%2F..%2Fobserve/metrics",
            "/api/x/..\\..\\admin/sales/1/stats", "/api/x/.;/.;/..;/admin/sales/1/stats", "//admin/sales/1/stats",
            "/API/../ADMIN/sales/1/stats", "/api/x/..;/..;/ADMIN/sales/1/stats", "/admin;/sales/1/stats",
            "/%61dmin/sales/1/stats", "/api/x/..;jsessionid=1/..;/admin/sales/1/stats",
        };
        for (String target : tricks) {
            RawHttp.Answer r = onPublic(target);
            assertFalse(r.body().contains("ADMIN_REACHED"), target + " reached the admin routes: " + r.body());
            assertFalse(r.body().contains("seckill_") || r.body().contains("# TYPE"), target + " served metrics");
            assertFalse(r.body().contains("\"redis\""), target + " served health details");
            assertTrue(r.status() == 404 || r.status() == 400, target + " answered " + r.status());
        }
    }

    @Test
    void aSaleIdSpelledWithEscapesMatrixParametersOrDotSegmentsNamesNoSale() {
        assertEquals(200, onPublic("/api/sales/1").status());
        for (String target : new String[]{"/api/sales/%31", "/api/sales/1;x", "/api/sales/%2B1", "/api/sales/%EF%BC%91",
                "/api/sales/%D9%A1", "/api/sales/2/../1", "/api/sales/./1"}) {
            RawHttp.Answer r = onPublic(target);
            assertEquals(404, r.status(), target + ": " + r.body());
            assertTrue(r.body().contains("\"SALE_NOT_FOUND\""), target + ": " + r.body());
        }
        for (String target : new String[]{"/api/sales/1;x/purchase", "/api/sales/%31/purchase", "/api/sales/1/purchase;x"}) {
            RawHttp.Answer r = RawHttp.send(publicPort, "POST", target, "Authorization", "Bearer " + API.signer.mint(1));
            assertEquals(404, r.status(), target + ": " + r.body());
        }
        assertEquals(0, API.reserver.reserveCalls(), "no spelling reached the stock");
    }
}
