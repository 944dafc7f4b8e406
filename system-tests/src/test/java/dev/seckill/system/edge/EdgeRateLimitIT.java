package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-client-IP purchase limit. The limited edges refill one request a minute, so within a test the
 * number of accepted requests is exactly BURST + 1 and the headers are exact numbers.
 */
class EdgeRateLimitIT {

    private static final int BURST = 4;
    private static final String PURCHASE = "/api/sales/1/purchase";

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("rate-limit",
            "SECKILL_EDGE_RATE", "1r/m", "SECKILL_EDGE_BURST", Integer.toString(BURST));
    private final HttpJson http = new HttpJson();

    @Test
    void burstFromOneClientGetsAcceptedThenRateLimitedWithHeadersAndJson() {
        List<HttpJson.Response> answers = purchases(fixture.edge(), "10.1.0.1", PURCHASE, 12);

        assertEquals(BURST + 1, accepted(answers), "accepted before the limit: " + statuses(answers));
        answers.subList(0, BURST + 1).forEach(r -> assertEquals(202, r.status(), r.body()));
        for (HttpJson.Response r : answers.subList(BURST + 1, answers.size())) {
            assertEquals(429, r.status(), r.body());
            // 1r/m: one more request in 60 s; the bucket of 4 rests in 4 x 60 s.
            assertRateLimited(r, 60, BURST + 1, 240);
        }
        assertEquals(BURST + 1, fixture.upstream().hits(h -> "10.1.0.1".equals(h.header("X-Forwarded-For"))),
                "refused purchases must not reach the service");
    }

    @Test
    void anotherClientIsNotLimitedByTheFirstClientsBurst() {
        List<HttpJson.Response> first = purchases(fixture.edge(), "10.1.0.2", PURCHASE, BURST + 2);
        assertEquals(429, first.getLast().status(), statuses(first));

        HttpJson.Response other = http.post(fixture.url(PURCHASE), null, from("10.1.0.3"));

        assertEquals(202, other.status(), other.body());
    }

    @Test
    void malformedSaleIdsAreAnsweredAtTheEdgeWithoutSpendingTheAllowance() {
        // A made-up id cannot dodge the limit by reaching the service; it gets no further than the edge.
        List<HttpJson.Response> made = purchases(fixture.edge(), "10.1.0.4", "/api/sales/abc/purchase", BURST + 3);
        made.forEach(r -> assertEquals("SALE_NOT_FOUND", r.code(), statuses(made)));

        List<HttpJson.Response> after = purchases(fixture.edge(), "10.1.0.4", PURCHASE, BURST + 1);
        assertEquals(BURST + 1, accepted(after), "the whole allowance is left: " + statuses(after));
        assertEquals(0, fixture.upstream().hits("/api/sales/abc/purchase"));
    }

    @Test
    void soldOutAnswersDoNotUseUpTheClientsAllowance() {
        assertEquals(200, http.send("PUT", fixture.url("/edge/flags/sold-out/9"), null).status());

        List<HttpJson.Response> soldOut =
                purchases(fixture.edge(), "10.1.0.5", "/api/sales/9/purchase", 3 * BURST);
        soldOut.forEach(r -> assertEquals(410, r.status(), statuses(soldOut)));

        List<HttpJson.Response> after = purchases(fixture.edge(), "10.1.0.5", PURCHASE, BURST + 1);
        assertEquals(BURST + 1, accepted(after), "the whole allowance is left: " + statuses(after));
    }

    @Test
    void renderedRateAndBurstChangeTheLimit() {
        int wider = 9;
        try (EdgeInstance other = fixture.another("rate-limit-wider",
                "SECKILL_EDGE_RATE", "1r/m", "SECKILL_EDGE_BURST", Integer.toString(wider))) {
            List<HttpJson.Response> here = purchases(fixture.edge(), "10.1.0.6", PURCHASE, 14);
            List<HttpJson.Response> there = purchases(other, "10.1.0.6", PURCHASE, 14);

            assertEquals(BURST + 1, accepted(here), statuses(here));
            assertEquals(wider + 1, accepted(there), statuses(there));
            assertRateLimited(there.getLast(), 60, wider + 1, 540);
        }
    }

    @Test
    void perSecondRateGivesRetryAfterOfOneSecond() {
        try (EdgeInstance fast = fixture.another("rate-limit-per-second",
                "SECKILL_EDGE_RATE", "2", "SECKILL_EDGE_BURST", "1")) {
            // Two requests a second, one more at once: a quick third request is refused (bounded: 20 tries).
            List<HttpJson.Response> answers = purchases(fast, "10.1.0.7", PURCHASE, 20);
            HttpJson.Response refused = answers.stream().filter(r -> r.status() == 429).findFirst()
                    .orElseThrow(() -> new AssertionError("never limited: " + statuses(answers)));

            assertRateLimited(refused, 1, 2, 1);
        }
    }

    @Test
    void withoutTrustedProxiesClientsCannotPickTheirBucket() {
        try (EdgeInstance untrusted = fixture.another("rate-limit-untrusted",
                "SECKILL_EDGE_TRUSTED_PROXIES", "", "SECKILL_EDGE_RATE", "1r/m",
                "SECKILL_EDGE_BURST", Integer.toString(BURST))) {
            List<HttpJson.Response> first = purchases(untrusted, "10.1.0.8", "/api/sales/2/purchase", BURST + 1);
            HttpJson.Response spoofed = http.post(untrusted.url("/api/sales/2/purchase"), null, from("10.1.0.9"));

            assertEquals(BURST + 1, accepted(first), statuses(first));
            assertEquals(429, spoofed.status(), "a forged X-Forwarded-For must not open a new bucket");
            assertEquals("127.0.0.1", fixture.upstream().last("/api/sales/2/purchase").header("X-Forwarded-For"));
        }
    }

    private List<HttpJson.Response> purchases(EdgeInstance target, String client, String path, int n) {
        List<HttpJson.Response> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            answers.add(http.post(target.url(path), null, from(client)));
        }
        return answers;
    }

    private static long accepted(List<HttpJson.Response> answers) {
        return answers.stream().filter(r -> r.status() == 202).count();
    }

    private static String statuses(List<HttpJson.Response> answers) {
        return "statuses " + answers.stream().map(HttpJson.Response::status).toList();
    }

    static void assertRateLimited(HttpJson.Response r, int retryAfter, int limit, int reset) {
        assertEquals(429, r.status(), r.body());
        assertEquals(Integer.toString(retryAfter), r.header("Retry-After"), "Retry-After");
        assertEquals(Integer.toString(limit), r.header("X-RateLimit-Limit"), "X-RateLimit-Limit");
        assertEquals("0", r.header("X-RateLimit-Remaining"), "X-RateLimit-Remaining");
        assertEquals(Integer.toString(reset), r.header("X-RateLimit-Reset"), "X-RateLimit-Reset");
        assertTrue(r.header("Content-Type").startsWith("application/json"), r.header("Content-Type"));
        assertEquals("RATE_LIMITED", r.code(), r.body());
        assertEquals(retryAfter, r.json().path("retryAfter").asInt(), r.body());
        assertTrue(r.json().path("message").isTextual(), r.body());
    }
}
