package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The batch writer's figures and targets, read from a real jmh.json (bench/src/test/resources/jmh-sample). */
class WriterBenchmarkTest {

    private static Jmh sample() throws Exception {
        return Jmh.read(Path.of(WriterBenchmarkTest.class.getResource("/jmh-sample/jmh.json").toURI()).getParent());
    }

    @Test
    void batchedAndRowAtATimeAreOrdersPerSecondAndTheirRatioIsSetAgainstTheTargets() throws Exception {
        WriterBenchmark w = WriterBenchmark.of(sample());
        Section s = w.addTo(new Section("ceilings", "c"));

        assertEquals("ops/s", w.batched().unit());
        assertEquals(Section.round(w.batched().score() / w.rowAtATime().score()), w.ratio());
        assertEquals(2, s.goals().size());
        assertEquals(w.batched().score() >= 20_000, s.goals().get(0).met());
        assertEquals(Section.f("%,.0f orders/s", w.batched().score()), s.goals().get(0).measured());
        assertEquals(w.ratio() >= 10, s.goals().get(1).met());
        assertTrue(s.markdown().contains(Section.f("against %,.0f orders/s row-at-a-time",
                w.rowAtATime().score())), s.markdown());
    }

    @Test
    void withoutTheBenchmarkBothTargetsAreUnmetAndSaySo(@TempDir Path empty) throws Exception {
        WriterBenchmark w = WriterBenchmark.of(Jmh.read(empty));
        Section s = w.addTo(new Section("ceilings", "c"));

        assertEquals(null, w.ratio());
        assertEquals(2, s.goals().size());
        assertTrue(s.goals().stream().noneMatch(Section.Goal::met));
        assertEquals("not measured", s.goals().get(0).measured());
        assertFalse(s.markdown().contains("orders/s**"), s.markdown());
        assertTrue(s.markdown().contains("WriterBatch did not run"), s.markdown());
    }
}
