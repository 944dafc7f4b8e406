package dev.seckill.system.observe;

import dev.seckill.system.edge.EdgeFixture;
import dev.seckill.system.edge.UpstreamStub;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The edge's latency histogram (lua/seckill/latency.lua) is a valid Prometheus histogram per route: buckets
 * cumulative up to +Inf, +Inf equal to _count, _count equal to the requests the edge counted on that route, and a
 * request lands in no bucket below the time it took. Only lower bounds are asserted (an answer the stub holds for
 * 400 ms cannot take less), never an upper one: the machine is shared.
 */
class EdgeLatencyIT {

    private static final String NAME = "seckill_edge_request_duration_seconds";
    private static final long HELD_MS = 400;
    private static final int READS = 7;

    /** A fresh edge and stub per test: the counts start at zero. */
    @RegisterExtension
    final EdgeFixture fixture = EdgeFixture.of("latency");

    private final HttpJson http = new HttpJson();

    @Test
    void eachRouteHasAValidHistogramThatCountsItsRequests() {
        for (int i = 0; i < READS; i++) {
            assertEquals(200, http.get(fixture.url("/api/sales/" + (i + 1)), from("10.16.1.1")).status());
        }
        Map<String, Double> samples = PrometheusText.samples(fixture.metrics(http));

        List<Double> buckets = buckets(samples, "sale_read");
        for (int i = 1; i < buckets.size(); i++) {
            assertTrue(buckets.get(i) >= buckets.get(i - 1), "cumulative buckets: " + buckets);
        }
        double count = samples.get(NAME + "_count{route=\"sale_read\"}");
        assertEquals(READS, count, "one sample per request");
        assertEquals(count, buckets.getLast(), "+Inf is the count");
        assertEquals(count, samples.get("seckill_edge_requests_total{route=\"sale_read\",status=\"200\"}"),
                "the histogram counts what the request counter counts");
        assertTrue(samples.get(NAME + "_sum{route=\"sale_read\"}") >= 0, "sum");
    }

    @Test
    void aRequestIsInNoBucketBelowTheTimeItTook() {
        // The stub holds the purchase's answer: the edge cannot have answered sooner.
        fixture.upstream().answer(hit -> {
            Thread.sleep(HELD_MS);
            return UpstreamStub.DEFAULT.answer(hit);
        });
        assertEquals(202, http.post(fixture.url("/api/sales/9/purchase"), null, from("10.16.1.2")).status());
        Map<String, Double> samples = PrometheusText.samples(fixture.metrics(http));

        assertEquals(1, samples.get(NAME + "_count{route=\"purchase\"}"));
        for (String le : List.of("0.001", "0.01", "0.1", "0.25")) {
            assertEquals(0, samples.get(NAME + "_bucket{route=\"purchase\",le=\"" + le + "\"}"), "le " + le);
        }
        assertEquals(1, samples.get(NAME + "_bucket{route=\"purchase\",le=\"+Inf\"}"));
        assertTrue(samples.get(NAME + "_sum{route=\"purchase\"}") >= (HELD_MS - 10) / 1000.0,
                "the sum holds the time the answer was held: " + samples.get(NAME + "_sum{route=\"purchase\"}"));
    }

    /** The route's bucket counts in the order the edge writes them (ascending le, +Inf last). */
    private static List<Double> buckets(Map<String, Double> samples, String route) {
        String prefix = NAME + "_bucket{route=\"" + route + "\",le=\"";
        List<Map.Entry<Double, Double>> byBound = new ArrayList<>();
        samples.forEach((series, value) -> {
            if (series.startsWith(prefix)) {
                String le = series.substring(prefix.length(), series.length() - 2);
                byBound.add(Map.entry(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), value));
            }
        });
        byBound.sort(Map.Entry.comparingByKey());
        assertTrue(byBound.size() > 2, "buckets of route " + route + ": " + byBound);
        return byBound.stream().map(Map.Entry::getValue).toList();
    }
}
