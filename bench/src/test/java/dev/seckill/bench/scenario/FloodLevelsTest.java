package dev.seckill.bench.scenario;

import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A flood client's measurement crosses the process boundary as JSON and merges with the others' whole. */
class FloodLevelsTest {

    private static FloodLevels.Part part(long from, double rps, Map<String, Long> byStatus) throws Exception {
        Histogram h = new Histogram(60_000_000L, 3);
        for (long i = from; i < from + 10_000; i++) {
            h.recordValue(i * 7);
        }
        Measured m = new Measured("flood", "bench client", h.getTotalCount(), 2, rps, byStatus, byStatus,
                Measured.Latency.of(h), null);
        String json = Section.JSON.writeValueAsString(FloodLevels.Part.of(m, h, new LoadClient.Wire(5, 1)));
        return Section.JSON.readValue(json, FloodLevels.Part.class);
    }

    @Test
    void thePartsOfALevelAddUp() throws Exception {
        Histogram both = new Histogram(60_000_000L, 3);
        for (long i = 1; i < 20_001; i++) {
            both.recordValue(i * 7);
        }

        Measured m = FloodLevels.merge("flood 10", List.of(part(1, 5_000, Map.of("410", 10_000L)),
                part(10_001, 4_000, Map.of("410", 9_990L, "0", 10L))));

        assertEquals(20_000, m.requests());
        assertEquals(9_000, m.rps(), 1e-9);
        assertEquals(Map.of("410", 19_990L, "0", 10L), m.byStatus());
        assertEquals(both.getValueAtPercentile(99) / 1000.0, m.latency().p99(), 1e-9);
        assertEquals(both.getMaxValue() / 1000.0, m.latency().max(), 1e-9);
    }

    @Test
    void aMetricsDeltaAddsEveryLabelOfTheSeries() {
        Map<String, Double> before = Map.of("a_total{x=\"1\"}", 1.0, "a_total_other", 5.0);
        Map<String, Double> after = Map.of("a_total{x=\"1\"}", 4.0, "a_total{x=\"2\"}", 2.0, "a_total_other", 9.0);

        assertEquals(5, Meters.delta(before, after, "a_total"));
    }
}
