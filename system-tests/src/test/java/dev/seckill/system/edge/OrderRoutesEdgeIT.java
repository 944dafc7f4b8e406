package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.stream.IntStream;

import static dev.seckill.system.edge.EdgeInstance.from;
import static dev.seckill.system.edge.EdgeRateLimitIT.assertRateLimited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two public routes at the edge, in front of a stub service: the caller's order in a sale and the
 * payment are proxied as matched (the Idempotency-Key with them, the answer never cached), other id spellings are
 * answered at the edge in JSON, and both routes count against the order-status limit per client.
 */
class OrderRoutesEdgeIT {

    private static final int BURST = 2;

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("order-routes",
            "SECKILL_EDGE_ORDER_RATE", "1r/m", "SECKILL_EDGE_ORDER_BURST", Integer.toString(BURST));
    private final HttpJson http = new HttpJson();

    @Test
    void myOrderIsProxiedAsMatchedAndNeverServedFromTheCache() {
        HttpJson.Response first = http.get(fixture.url("/api/sales/12/order"), from("10.14.0.1", "Authorization", "Bearer a"));
        HttpJson.Response second = http.get(fixture.url("/api/sales/12/order"), from("10.14.0.2", "Authorization", "Bearer b"));
        assertEquals(200, first.status(), first.body());
        assertEquals(200, second.status(), second.body());
        assertEquals(2, fixture.upstream().hits(h -> h.path().equals("/api/sales/12/order")),
                "each shopper's own answer, from the service");
        assertEquals("Bearer b", fixture.upstream().last("/api/sales/12/order").header("Authorization"));
    }

    @Test
    void aPayIsProxiedOnceWithItsIdempotencyKey() {
        HttpJson.Response r = http.post(fixture.url("/api/orders/77/pay"), null,
                from("10.14.0.3", "Idempotency-Key", "k-123"));
        assertEquals(200, r.status(), r.body());
        UpstreamStub.Hit hit = fixture.upstream().last("/api/orders/77/pay");
        assertEquals("POST", hit.method());
        assertEquals("k-123", hit.header("Idempotency-Key"));
        assertEquals(1, fixture.upstream().hits(h -> h.path().equals("/api/orders/77/pay")));
    }

    @Test
    void otherIdSpellingsAreAnsweredAtTheEdge() {
        for (String id : List.of("012", "+12", "abc", "99999999999999999999")) {
            HttpJson.Response sale = http.get(fixture.url("/api/sales/" + id + "/order"), from("10.14.0.4"));
            assertEquals(404, sale.status(), id);
            assertEquals("SALE_NOT_FOUND", sale.code(), id);
            HttpJson.Response order = http.post(fixture.url("/api/orders/" + id + "/pay"), null, from("10.14.0.4"));
            assertEquals(404, order.status(), id);
            assertEquals("ORDER_NOT_FOUND", order.code(), id);
            assertTrue(order.header("Content-Type").startsWith("application/json"));
        }
        assertEquals(0, fixture.upstream().hits(h -> "10.14.0.4".equals(h.header("X-Forwarded-For"))));
    }

    @Test
    void bothRoutesShareTheOrderStatusLimitOfAClient() {
        List<HttpJson.Response> answers = IntStream.range(0, BURST + 2)
                .mapToObj(i -> i % 2 == 0 ? http.get(fixture.url("/api/sales/5/order"), from("10.14.0.5"))
                        : http.post(fixture.url("/api/orders/5/pay"), null, from("10.14.0.5")))
                .toList();
        answers.subList(0, BURST + 1).forEach(r -> assertEquals(200, r.status(), r.body()));
        assertRateLimited(answers.getLast(), 60, BURST + 1, 120);
        assertEquals(BURST + 1, fixture.upstream().hits(h -> "10.14.0.5".equals(h.header("X-Forwarded-For"))));
    }
}
