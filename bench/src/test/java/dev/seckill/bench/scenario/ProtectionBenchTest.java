package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protection section's in-process figures, read from a real jmh.json (bench/src/test/resources/jmh-sample). */
class ProtectionBenchTest {

    private static Jmh sample() throws Exception {
        return Jmh.read(Path.of(ProtectionBenchTest.class.getResource("/jmh-sample/jmh.json").toURI()).getParent());
    }

    @Test
    void theGatesCostIsThePathCheckOverThePlainDecisionAtTheirBestIterations() throws Exception {
        Jmh jmh = sample();
        Section s = new Section("protection", "p");

        ProtectionBench.inProcess(s, jmh);

        double micros = (jmh.get("ProtectionCheck.pathCheck").orElseThrow().best()
                - jmh.get("ProtectionCheck.plainDecision").orElseThrow().best()) / 1000;
        String md = s.markdown();
        assertTrue(md.contains(Section.f("Checking a path adds **%.2f µs** of CPU per purchase", micros)), md);
        assertTrue(md.contains("| ProtectionCheck.tokenCheck | **"), md);
        assertTrue(md.contains("1 fork(s), 1 x 300 ms warm-up, 1 x 300 ms measured"), md);
    }

    @Test
    void eachDifficultyShowsItsSaltsHashesAndSolveTime() throws Exception {
        Jmh jmh = sample();
        Section s = new Section("protection", "p");

        ProtectionBench.inProcess(s, jmh);

        Jmh.Score eight = jmh.get("ProtectionCheck.solve", "bits", "8").orElseThrow();
        double salts = eight.counters().get("solves");
        double hashes = eight.counters().get("hashes");
        assertTrue(s.markdown().contains(Section.f("| 8 | %d | %,.0f | %.2f ± NaN ms |", (long) salts,
                hashes / salts, eight.score())), s.markdown());
        assertEquals(jmh.of("ProtectionCheck").size(), ProtectionBench.inProcess(new Section("p", "p"), jmh).size());
    }

    @Test
    void withoutTheBenchmarkTheSectionSaysItDidNotRun(@TempDir Path empty) throws Exception {
        Section s = new Section("protection", "p");

        assertTrue(ProtectionBench.inProcess(s, Jmh.read(empty)).isEmpty());
        assertTrue(s.markdown().contains("ProtectionCheck did not run: no figure"), s.markdown());
    }
}
