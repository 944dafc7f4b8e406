package dev.seckill.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JMH's JSON as its runner wrote it (a short real run of the microbench jar, resources/jmh-sample/jmh.json). */
class JmhTest {

    static Jmh sample() throws Exception {
        return Jmh.read(sampleDir());
    }

    static Path sampleDir() throws URISyntaxException {
        return Path.of(JmhTest.class.getResource("/jmh-sample/jmh.json").toURI()).getParent();
    }

    @Test
    void eachBenchmarkIsReadByItsClassAndMethodWithItsUnitAndHowItRan() throws Exception {
        Jmh.Score rs = sample().get("TokenVerification.rs256").orElseThrow();

        assertEquals(4438.7035526315785, rs.score());
        assertEquals("us/op", rs.unit());
        assertTrue(Double.isNaN(rs.error()), "JMH's \"NaN\" of a single iteration");
        assertEquals(rs.score(), rs.best(), "one iteration: the best is the score");
        assertEquals("1 fork(s), 1 x 300 ms warm-up, 1 x 300 ms measured", rs.run());
        assertEquals(4, sample().of("TokenVerification").size());
    }

    @Test
    void aRateIsReadInOrdersPerSecondWithHowItRan() throws Exception {
        Jmh.Score batched = sample().get("WriterBatch.batched").orElseThrow();

        assertEquals(2813.0393194146172, batched.score());
        assertEquals("ops/s", batched.unit());
        assertEquals("1 fork(s), 1 x 1 s warm-up, 1 x 1 s measured", batched.run());
    }

    @Test
    void aParameterisedBenchmarkIsFoundAtItsParameterWithItsCounters() throws Exception {
        Jmh.Score ten = sample().get("ProtectionCheck.solve", "bits", "10").orElseThrow();

        assertEquals("10", ten.params().get("bits"));
        assertEquals(24_448, ten.counters().get("hashes"));
        assertEquals(27, ten.counters().get("solves"));
        assertTrue(sample().get("ProtectionCheck.solve", "bits", "9").isEmpty());
    }

    @Test
    void noFileIsNoFigure(@TempDir Path empty) throws Exception {
        Jmh none = Jmh.read(empty);

        assertTrue(none.scores().isEmpty());
        assertTrue(none.get("WriterBatch.batched").isEmpty());
        assertTrue(Jmh.missing("WriterBatch").startsWith("WriterBatch did not run: no figure"));
    }
}
