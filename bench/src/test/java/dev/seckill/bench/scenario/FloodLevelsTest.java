package dev.seckill.bench.scenario;

import dev.seckill.bench.load.Answer;
import dev.seckill.bench.load.Generators;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Section;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A level's wrk processes as one measurement, and the section's target from the levels. */
class FloodLevelsTest {

    private static Generators.Summary process(long requests, double seconds, Map<String, Long> errors, double p99) {
        return new Generators.Summary(requests, seconds, requests, 0, errors, Map.of("410 SOLD_OUT", requests),
                new Measured.Latency(p99 / 4, p99 / 2, p99, p99 * 2, p99 / 3));
    }

    private static Map<String, Long> errors(long connect, long read, long write, long timeout) {
        return Map.of("connect", connect, "read", read, "write", write, "timeout", timeout);
    }

    private static FloodLevels.Level level(int connections, long open, Generators.Flood run) {
        return new FloodLevels.Level(connections, run.processes().size(), new Generators.Flood.Open(open, 900),
                run.measured("flood " + connections), run.failedConnections(), 1000, 1, 1, 0, null,
                new Sampler.PerUnit("flood", 1000, 1, Map.of(), Map.of("edge", 20.0), 40));
    }

    @Test
    void theProcessesOfALevelAddUpTheirRatesAndGiveTheHighestPercentiles() {
        Generators.Flood run = new Generators.Flood(List.of(process(10_000, 2, errors(0, 0, 0, 0), 40),
                process(8_000, 2.5, errors(3, 1, 2, 4), 90)), new Generators.Flood.Open(20_000, 800));

        Measured m = run.measured("flood 20000");

        assertEquals(18_000, m.requests());
        assertEquals(10_000 / 2.0 + 8_000 / 2.5, m.rps(), 1e-9);
        assertEquals(2.5, m.seconds());
        assertEquals(Map.of("410 SOLD_OUT", 18_000L, Answer.NO_ANSWER, 7L), m.byKind());
        assertEquals(Map.of("410", 18_000L, "0", 7L), m.byStatus(), "read, write and timeout errors: no answer");
        assertEquals(3, run.failedConnections(), "connect errors");
        assertEquals(90, m.latency().p99(), 1e-9);
        assertEquals(180, m.latency().max(), 1e-9);
        assertEquals((10_000 * 40 / 3.0 + 8_000 * 30) / 18_000, m.latency().mean(), 1e-9);
    }

    @Test
    void theTargetIsTheLargestLevelOfAtLeastTwentyThousandConnections() {
        Generators.Flood clean = new Generators.Flood(List.of(process(10_000, 2, errors(0, 0, 0, 0), 40)),
                new Generators.Flood.Open(20_000, 800));
        Generators.Flood failing = new Generators.Flood(List.of(process(10_000, 2, errors(2, 0, 0, 1), 40)),
                new Generators.Flood.Open(30_000, 800));
        BenchOptions o = BenchOptions.defaults();

        assertEquals(List.of(), FloodLevels.section(List.of(level(1000, 1000, failing)), o).goals());
        List<Section.Goal> goals = FloodLevels.section(List.of(level(20_000, 20_000, clean),
                level(30_000, 30_000, failing), level(5_000, 5_000, clean)), o).goals();
        assertEquals(1, goals.size());
        assertEquals("2, 1, 0", goals.getFirst().measured());
        assertFalse(goals.getFirst().met());
        assertTrue(goals.getFirst().name().contains("30,000"), goals.getFirst().name());

        Section.Goal open = FloodLevels.section(List.of(level(20_000, 19_999, clean)), o).goals().getFirst();
        assertEquals("0, 0, 0", open.measured());
        assertFalse(open.met(), "a level met only with every connection open at once");
        assertTrue(FloodLevels.section(List.of(level(20_000, 20_000, clean)), o).goals().getFirst().met());
    }

    @Test
    void aMetricsDeltaAddsEveryLabelOfTheSeries() {
        Map<String, Double> before = Map.of("a_total{x=\"1\"}", 1.0, "a_total_other", 5.0);
        Map<String, Double> after = Map.of("a_total{x=\"1\"}", 4.0, "a_total{x=\"2\"}", 2.0, "a_total_other", 9.0);

        assertEquals(5, Meters.delta(before, after, "a_total"));
    }
}
