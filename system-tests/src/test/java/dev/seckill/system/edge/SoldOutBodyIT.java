package dev.seckill.system.edge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One SOLD_OUT answer, and one SALE_ENDED answer: the body the edge answers from its flag
 * (openresty/lua/seckill/flags.lua) is the body the service answers (PurchaseService), field by field. The two are
 * written in two languages; this test against the real stack is what keeps them one answer.
 */
class SoldOutBodyIT {

    /** Present in both or neither; its value is per request. */
    private static final String PER_REQUEST = "requestId";

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    @Test
    void theEdgesFlagAnswerIsTheServicesSoldOutAnswer() {
        long sale = saleOfOne();
        long buyer = System.nanoTime() % 1_000_000_000L + 1_000_000_000L;
        HttpJson.Response bought = purchaseAtTheService(sale, buyer);
        assertEquals(202, bought.status(), bought.body());

        HttpJson.Response service = purchaseAtTheService(sale, buyer + 1);
        assertEquals(410, service.status(), service.body());
        assertEquals("SOLD_OUT", service.code(), service.body());

        // The edge's flag answer: a purchase without identity, which the service would refuse with 401, so a 410
        // can only come from the edge's flag.
        HttpJson.Response flag = http.send("PUT", stack.edgeUrl() + "/edge/flags/sold-out/" + sale + "?ttl=60", null);
        assertEquals(200, flag.status(), flag.body());
        HttpJson.Response edge = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null);
        http.send("DELETE", stack.edgeUrl() + "/edge/flags/sold-out/" + sale, null);

        assertEquals(service.status(), edge.status(), edge.body());
        assertSameFields(service.json(), edge.json());
        assertEquals(service.header("X-Seckill-Sold-Out"), edge.header("X-Seckill-Sold-Out"), "X-Seckill-Sold-Out");
        assertTrue(edge.header("Content-Type").startsWith("application/json"), edge.header("Content-Type"));
    }

    /** The edge learns SALE_ENDED from the service's answer (there is no operator flag for it). */
    @Test
    void theEdgesEndedAnswerIsTheServicesSaleEndedAnswer() {
        Instant ends = Instant.now().plusSeconds(2);
        long sale = sale(1, Instant.now().minusSeconds(1), ends);
        long buyer = System.nanoTime() % 1_000_000_000L + 2_000_000_000L;
        // The sale's window closes by the clock; the service's own answer is polled until it says so.
        HttpJson.Response service = Await.value(Duration.ofSeconds(30), () -> {
            HttpJson.Response r = purchaseAtTheService(sale, buyer);
            return r.status() == 410 ? r : null;
        }, "the sale to end");
        assertEquals("SALE_ENDED", service.code(), service.body());

        // Through the edge with a token: the service's SALE_ENDED sets the flag. Then without identity, which the
        // service would refuse with 401: a 410 can only come from the edge's flag.
        HttpJson.Response learned = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(buyer + 1)));
        assertEquals(410, learned.status(), learned.body());
        HttpJson.Response edge = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null);
        http.send("DELETE", stack.edgeUrl() + "/edge/flags/sold-out/" + sale, null);

        assertEquals(410, edge.status(), edge.body());
        assertSameFields(service.json(), edge.json());
        assertEquals(service.header("X-Seckill-Sold-Out"), edge.header("X-Seckill-Sold-Out"), "X-Seckill-Sold-Out");
    }

    private static void assertSameFields(JsonNode service, JsonNode edge) {
        Set<String> names = new TreeSet<>();
        service.fieldNames().forEachRemaining(names::add);
        for (Iterator<String> it = edge.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        for (String name : names) {
            String what = name + ": service " + service + " vs edge " + edge;
            assertEquals(service.has(name), edge.has(name), what);
            if (!name.equals(PER_REQUEST)) {
                assertEquals(service.get(name), edge.get(name), what);
            }
        }
    }

    private HttpJson.Response purchaseAtTheService(long sale, long user) {
        return http.post(stack.serviceUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(user)));
    }

    /** A sale with a stock of one, open now (admin API, the service's internal listener). */
    private long saleOfOne() {
        return sale(1, Instant.now().minusSeconds(1), Instant.now().plusSeconds(3600));
    }

    private long sale(int stock, Instant startsAt, Instant endsAt) {
        return new AdminSales(stack, http).sale("sold-out-body-").priceCents(100).stock(stock).startsAt(startsAt)
                .endsAt(endsAt).create();
    }
}
