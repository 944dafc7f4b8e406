package dev.seckill.bench.scenario;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Measured.Ratio;
import dev.seckill.bench.report.Jmh;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ceilings section shows every round, the best of each, redis-benchmark, the writer and the ratios. */
class CeilingsTest {

    private static Measured m(String name, double rps, Map<String, Double> inService) {
        return new Measured(name, "bench client", 10, 1, rps, Map.of(), Map.of("202 QUEUED", 10L),
                new Measured.Latency(1, 2, 3, 4, 1.5), inService);
    }

    private static Jmh.Score score(String benchmark, double opsPerSecond) {
        return new Jmh.Score(benchmark, Map.of(), opsPerSecond, 500, "ops/s", opsPerSecond, Map.of(),
                "1 fork(s), 2 x 1 s warm-up, 5 x 1 s measured");
    }

    @Test
    void theSectionKeepsEveryNumberAndItsDataLeavesTheAttemptsOut() throws Exception {
        List<Measured> rounds = List.of(m(Ceilings.TRIVIAL, 20_000, null), m(Ceilings.PURCHASE, 9_000,
                Map.of("redis_scriptMeanMs", 0.4, "kafka_sendMeanMs", 2.5)), m(Ceilings.TRIVIAL, 22_000, null),
                m(Ceilings.PURCHASE, 12_100, Map.of("redis_scriptMeanMs", 0.3, "kafka_sendMeanMs", 2.0)));
        Map<String, Measured> best = new LinkedHashMap<>();
        best.put(Ceilings.TRIVIAL, rounds.get(2));
        best.put(Ceilings.PURCHASE, rounds.get(3));
        Measured redis = new Measured("redis EVALSHA", "redis-benchmark", 100_000, 2, 50_000, Map.of(), Map.of(),
                new Measured.Latency(0.5, 0, 0.9, 1.2, 0.6), null);
        WriterBenchmark writer = new WriterBenchmark(score("WriterBatch.batched", 25_000), score(
                "WriterBatch.rowAtATime", 2_000));
        Ceilings.Result c = new Ceilings.Result(rounds, best, List.of(Ratio.of(rounds, Ceilings.PURCHASE,
                Ceilings.TRIVIAL)), List.of(redis), writer);
        BenchOptions o = BenchOptions.parse(new String[]{"--rounds", "2", "--ceiling-seconds", "3"});

        String md = c.section(o).markdown();

        assertTrue(md.contains("| " + Ceilings.PURCHASE + " | bench client | **12,100** |"), md);
        assertTrue(md.contains("| 9,000 · 12,100 | {202 QUEUED=10} | 0.3 / 2.0 |"), md);
        assertTrue(md.contains("| redis EVALSHA | redis-benchmark | **50,000** | 0.50 | - | 0.90 |"), md);
        assertTrue(md.contains("**25,000 ± 500 orders/s** batched"), md);
        assertTrue(md.contains("against 2,000 orders/s row-at-a-time (one transaction per order on one kept "
                + "connection): **12.5 x**"), md);
        assertTrue(md.contains("**0.50** (rounds [0.45, 0.55]; of the best rounds 0.55)"), md);
        assertTrue(md.contains("Best of 2 interleaved rounds of 3 s"), md);
        JsonNode data = c.section(o).data();
        assertEquals("GET " + Ceilings.TRIVIAL_PATH, data.path("trivialRoute").asText());
        assertEquals(12.5, data.path("writer").path("ratio").asDouble());
        assertEquals(4, data.path("rounds").size());
        assertFalse(data.has("sales"));
    }
}
