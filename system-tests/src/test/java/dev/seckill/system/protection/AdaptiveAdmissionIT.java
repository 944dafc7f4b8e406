package dev.seckill.system.protection;

import dev.seckill.system.edge.EdgeFixture;
import dev.seckill.system.edge.EdgeInstance;
import dev.seckill.system.edge.UpstreamStub;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The edge's in-flight limit follows the service behind it (openresty/README.md, "Total admission"): it stays at its
 * knob while the service answers in its usual time, shrinks when the answers take far longer than usual (purchases
 * queue in the service), refusing the excess with 429 itself, and grows back once the service is quick again; at low
 * load it refuses nothing. A stub service whose answer time the test sets; the edge's own gauges and counters.
 */
class AdaptiveAdmissionIT {

    private static final int MAX = 64;
    private static final int CLIENTS = 40;
    private static final String LIMIT = "seckill_edge_admission_in_flight_limit";
    private static final String REFUSED = "seckill_edge_admission_refused_total{limit=\"in_flight\"}";

    @RegisterExtension
    static final EdgeFixture fixture = EdgeFixture.of("adaptive-admission", "SECKILL_EDGE_ADMIT_IN_FLIGHT",
            Integer.toString(MAX));
    private final HttpJson http = new HttpJson();
    private final AtomicLong answerMillis = new AtomicLong(1);

    private static String path(long sale) {
        return "/api/sales/" + sale + "/purchase";
    }

    @Test
    void theInFlightLimitShrinksWhenTheServiceSlowsDownAndGrowsBackWhenItRecovers() {
        fixture.upstream().answer(hit -> {
            Thread.sleep(answerMillis.get());
            return UpstreamStub.DEFAULT.answer(hit);
        });
        EdgeInstance edge = fixture.edge();
        long sale = 1821;

        // Low load: one client at a time, the service quick. Nothing refused, the limit where its knob put it.
        Flood.Result calm = Flood.run(fixture.url(path(sale)), 2, Duration.ofSeconds(1), Flood::from);
        assertEquals(0, calm.count("429 RATE_LIMITED"), calm.byKind().toString());
        assertEquals(MAX, EdgeCounters.value(http, edge, LIMIT), "the limit at low load");

        // The crowd meets a quick service, then one that answers 50 times slower: the limit comes down, and the
        // purchases past it are the edge's 429.
        CompletableFuture<Flood.Result> crowd = CompletableFuture.supplyAsync(
                () -> Flood.run(fixture.url(path(sale)), CLIENTS, Duration.ofSeconds(6), Flood::from));
        try {
            Await.until(Duration.ofSeconds(5), () -> fixture.upstream().hits(path(sale)) > calm.total() + 200,
                    "the crowd reaching the quick service");
            answerMillis.set(50);
            Await.until(Duration.ofSeconds(5), () -> EdgeCounters.value(http, edge, LIMIT) < CLIENTS,
                    "the limit to come below the crowd's " + CLIENTS + " purchases in flight");
        } finally {
            answerMillis.set(1);
        }
        Flood.Result r = crowd.join();
        assertTrue(r.count("429 RATE_LIMITED") > 0, "the edge refused the excess itself: " + r.byKind());
        assertTrue(EdgeCounters.value(http, edge, REFUSED) >= r.count("429 RATE_LIMITED"), r.byKind().toString());

        // Quick again: the limit grows back to its knob while a crowd keeps it in use.
        Flood.Result again = Flood.run(fixture.url(path(sale)), CLIENTS, Duration.ofSeconds(1), Flood::from);
        Await.until(Duration.ofSeconds(20), () -> {
            Flood.run(fixture.url(path(sale)), CLIENTS, Duration.ofMillis(500), Flood::from);
            return EdgeCounters.value(http, edge, LIMIT) == MAX;
        }, "the limit back at its knob after " + again.byKind());
    }

    @Test
    void aLimitNotInUseDoesNotMove() {
        fixture.upstream().answer(hit -> {
            Thread.sleep(answerMillis.get());
            return UpstreamStub.DEFAULT.answer(hit);
        });
        try (EdgeInstance edge = fixture.another("adaptive-admission-idle", "SECKILL_EDGE_ADMIT_IN_FLIGHT",
                Integer.toString(MAX))) {
            // Four at a time, far under half the limit in flight: quick answers, then 60 times slower ones.
            for (long millis : new long[] {1, 60, 60}) {
                answerMillis.set(millis);
                Flood.Result r = Flood.run(edge.url(path(1822)), 4, Duration.ofMillis(700), Flood::from);
                assertEquals(0, r.count("429 RATE_LIMITED"), r.byKind().toString());
            }
            assertEquals(MAX, EdgeCounters.value(http, edge, LIMIT));
            assertEquals(202, http.post(edge.url(path(1822)), null, from("10.18.203.1")).status());
        }
    }
}
