package dev.seckill.system.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.system.edge.EdgeFixture;
import dev.seckill.system.edge.UpstreamStub;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Set;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A flag that does not lapse into a herd: once the service has said SOLD_OUT or SALE_ENDED, a flood of
 * purchases reaches it at most once per re-check interval (SECKILL_EDGE_SOLDOUT_TTL, 1 s here), whatever the
 * requests hold and however many clients send them, until the flag is cleared. Before this the flag lapsed after
 * its TTL and every purchase in flight passed until one SOLD_OUT answer set it again, and a flood without tokens (401
 * at the service, which never set the flag) went through entirely. The bound is on counts at the stub, from the time
 * the flood lasted as the test measured it.
 */
class FlagRecheckIT {

    private static final int INTERVAL_SECONDS = 1;
    private static final int CLIENTS = 64;
    private static final Duration FLOOD = Duration.ofSeconds(4);

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("flag-recheck",
            "SECKILL_EDGE_SOLDOUT_TTL", Integer.toString(INTERVAL_SECONDS));
    private final HttpJson http = new HttpJson();

    private static String path(long sale) {
        return "/api/sales/" + sale + "/purchase";
    }

    /** The service of a sold-out sale: SOLD_OUT to a buyer with a token, 401 to a request without one. */
    private static UpstreamStub.Responder soldOutToBuyers(long sale) {
        return hit -> {
            if (!hit.path().equals(path(sale))) {
                return UpstreamStub.DEFAULT.answer(hit);
            }
            if (hit.header("Authorization") == null) {
                return UpstreamStub.Reply.json(401, "{\"code\":\"UNAUTHENTICATED\",\"message\":\"token\"}");
            }
            return UpstreamStub.Reply.json(410, "{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"saleId\":" + sale
                    + "}", "X-Seckill-Sold-Out", "1");
        };
    }

    @Test
    void aFloodWithoutTokensAfterTheSellOutReachesTheServiceOncePerInterval() {
        long sale = 1801;
        fixture.upstream().answer(soldOutToBuyers(sale));
        HttpJson.Response learned = http.post(fixture.url(path(sale)), null, from("10.18.200.1",
                "Authorization", "Bearer buyer"));
        assertEquals(410, learned.status(), learned.body());
        long learnedAt = System.nanoTime();

        Flood.Result flood = Flood.run(fixture.url(path(sale)), CLIENTS, FLOOD, Flood::from);

        double since = (System.nanoTime() - learnedAt) / 1e9;
        long reached = fixture.upstream().hits(path(sale)) - 1;
        System.out.printf("flag re-check: %d purchases without a token from %d clients in %.1f s: %s; %d reached "
                + "the service%n", flood.total(), CLIENTS, flood.seconds(), flood.byKind(), reached);
        assertTrue(Set.of("410 SOLD_OUT", "401 UNAUTHENTICATED").containsAll(flood.answeredKinds()),
                flood.byKind().toString());
        assertTrue(reached >= 1, "the flag was re-checked during a " + FLOOD + " flood: " + flood.byKind());
        assertTrue(reached <= since / INTERVAL_SECONDS + 1,
                reached + " purchases reached the service in " + since + " s: at most one per interval may");
        // A request whose answer the client lost may have been a re-check.
        long rechecks = flood.count("401 UNAUTHENTICATED");
        assertTrue(reached >= rechecks && reached <= rechecks + flood.count(Flood.NO_ANSWER),
                "only the re-checks reached the service: " + reached + ", " + flood.byKind());
        // A 401 says nothing about stock: the flag stays, and the service counts as re-checked but kept.
        JsonNode flag = http.get(fixture.url("/edge/flags/sold-out/" + sale)).json();
        assertTrue(flag.path("soldOut").asBoolean() && flag.path("held").asBoolean(), flag.toString());
        assertEquals(reached, EdgeCounters.value(http, fixture.edge(),
                "seckill_edge_flag_rechecks_total{result=\"kept\"}"));
    }

    @Test
    void anEndedSaleIsFlaggedAndReCheckedLikeASoldOutOne() {
        long sale = 1802;
        String ended = "{\"code\":\"SALE_ENDED\",\"saleId\":" + sale + ",\"message\":\"the sale is over\"}";
        fixture.upstream().answer(hit -> hit.path().equals(path(sale))
                ? UpstreamStub.Reply.json(410, ended) : UpstreamStub.DEFAULT.answer(hit));
        long confirmedBefore = EdgeCounters.value(http, fixture.edge(),
                "seckill_edge_flag_rechecks_total{result=\"confirmed\"}");
        assertEquals(410, http.post(fixture.url(path(sale)), null, from("10.18.200.2")).status());
        long learnedAt = System.nanoTime();

        Flood.Result flood = Flood.run(fixture.url(path(sale)), CLIENTS, FLOOD,
                i -> Flood.from(i, "Authorization", "Bearer buyer-" + i));

        double since = (System.nanoTime() - learnedAt) / 1e9;
        long reached = fixture.upstream().hits(path(sale)) - 1;
        assertEquals(Set.of("410 SALE_ENDED"), flood.answeredKinds(), flood.byKind().toString());
        assertTrue(reached >= 1 && reached <= since / INTERVAL_SECONDS + 1,
                reached + " purchases reached the service in " + since + " s");
        assertEquals(reached, EdgeCounters.value(http, fixture.edge(),
                "seckill_edge_flag_rechecks_total{result=\"confirmed\"}") - confirmedBefore,
                "each re-check was answered SALE_ENDED and renewed the flag");
    }

    @Test
    void aClearedFlagSendsPurchasesToTheServiceAgain() {
        long sale = 1803;
        fixture.upstream().answer(soldOutToBuyers(sale));
        assertEquals(410, http.post(fixture.url(path(sale)), null, from("10.18.200.3", "Authorization", "Bearer b"))
                .status());
        fixture.upstream().answer(UpstreamStub.DEFAULT); // restocked

        HttpJson.Response cleared = http.send("DELETE", fixture.url("/edge/flags/sold-out/" + sale), null);

        assertTrue(cleared.json().path("cleared").asBoolean(), cleared.body());
        assertEquals(202, http.post(fixture.url(path(sale)), null, from("10.18.200.3")).status());
        assertEquals(2, fixture.upstream().hits(path(sale)));
    }
}
