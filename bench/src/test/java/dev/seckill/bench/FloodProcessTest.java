package dev.seckill.bench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A flood client's latency histogram crosses the process boundary as text and comes back whole. */
class FloodProcessTest {

    @Test
    void aHistogramSurvivesItsEncoding() {
        Histogram h = new Histogram(60_000_000L, 3);
        for (int i = 1; i <= 10_000; i++) {
            h.recordValue(i * 7L);
        }

        Histogram back = FloodProcess.decode(FloodProcess.encode(h));

        assertEquals(h.getTotalCount(), back.getTotalCount());
        assertEquals(h.getValueAtPercentile(99), back.getValueAtPercentile(99));
        assertEquals(h.getMaxValue(), back.getMaxValue());
    }
}
