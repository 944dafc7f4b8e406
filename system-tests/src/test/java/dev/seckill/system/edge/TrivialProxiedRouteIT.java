package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The trivial proxied route the bench sets the purchase path against: on the running stack's edge an operator's
 * request reaches the service (its {@code {"code":"OK"}}, not an answer the edge wrote itself), a forwarded one is the
 * edge's own 404, and only the edge's own answers carry {@code X-Seckill-Answered-By: edge}.
 */
class TrivialProxiedRouteIT {

    private static final String ROUTE = "/edge/bench/proxied";
    private static final String ANSWERED_BY = "X-Seckill-Answered-By";

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void anOperatorsRequestReachesTheServicesTrivialRoute() {
        HttpJson.Response r = http.get(stack.edgeUrl() + ROUTE);

        assertEquals(200, r.status(), r.body());
        assertEquals("OK", r.code(), r.body());
        assertNull(r.header(ANSWERED_BY), "the service's answer, passed on");
    }

    @Test
    void aForwardedRequestIsTheEdgesOwnNotFound() {
        HttpJson.Response r = http.get(stack.edgeUrl() + ROUTE, EdgeInstance.from("10.18.204.1"));

        assertEquals(404, r.status(), r.body());
        assertEquals("edge", r.header(ANSWERED_BY));
    }

    @Test
    void theEdgesOwnAnswersAreMarkedAndTheServicesAreNot() {
        HttpJson.Response unlisted = http.get(stack.edgeUrl() + "/api/nope");
        HttpJson.Response service = http.get(stack.edgeUrl() + "/api/sales/999999999");

        assertEquals(404, unlisted.status(), unlisted.body());
        assertEquals("edge", unlisted.header(ANSWERED_BY), "a route the edge does not list: its own 404");
        assertEquals(404, service.status(), service.body());
        assertEquals("SALE_NOT_FOUND", service.code(), service.body());
        assertNull(service.header(ANSWERED_BY), "the service's 404, passed on");
    }
}
