package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The reports of real runs of bench/ceilings.sh's steps (src/test/resources/tools), read in milliseconds. */
class GeneratorsTest {

    private static Path sample(String name) throws URISyntaxException {
        return Path.of(GeneratorsTest.class.getResource("/tools/" + name).toURI());
    }

    @Test
    void readsWrksSummaryLineBesideItsOwnReport() throws Exception {
        Measured m = Generators.wrk("x", sample("wrk-get.txt"));

        assertEquals("wrk", m.generator());
        assertEquals(992, m.requests());
        assertEquals(1.022214, m.seconds(), 1e-9);
        assertEquals(992 / 1.022214, m.rps(), 1e-6);
        assertEquals(992, m.count("2xx/3xx"));
        assertEquals(0, m.count("non-2xx"));
        assertEquals(2.697, m.latency().p50(), 1e-9);
        assertEquals(13.703, m.latency().p90(), 1e-9);
        assertEquals(57.788, m.latency().p99(), 1e-9);
        assertEquals(73.424, m.latency().max(), 1e-9);
        assertEquals(6.389334, m.latency().mean(), 1e-9);
    }

    @Test
    void countsTheAnswersWrkCalledNon2xx() throws Exception {
        Measured m = Generators.wrk("x", sample("wrk-post-410.txt"));

        assertEquals(643, m.requests());
        assertEquals(643, m.count("non-2xx"), "the script's POSTs were all answered 410");
        assertEquals(0, m.count("2xx/3xx"));
    }

    @Test
    void aWrkReportWithoutTheSummarySaysSo(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("wrk.txt"), "unable to connect to 127.0.0.1:1 Connection refused\n");

        IOException e = assertThrows(IOException.class, () -> Generators.wrk("x", f));
        assertEquals(true, e.getMessage().contains("Connection refused"), e.getMessage());
    }

    @Test
    void readsAFloodLevelsProcessesAndItsOpenConnections() throws Exception {
        Generators.Flood run = Generators.flood(sample("flood"), 20_000);

        assertEquals(2, run.processes().size());
        assertEquals(new Generators.Flood.Open(20_000, 1339), run.open());
        Generators.Summary second = run.processes().get(1);
        assertEquals(117_010, second.requests());
        assertEquals(Map.of("410 SOLD_OUT", 117_010L), second.byKind());
        assertEquals(Map.of("connect", 0L, "read", 0L, "write", 0L, "timeout", 0L), second.errors());
        assertEquals(467.613, second.latency().p99(), 1e-9);
        Measured m = run.measured("flood 20000");
        assertEquals(106_226 + 117_010, m.requests());
        assertEquals(106_226 / 5.143669 + 117_010 / 5.118700, m.rps(), 1e-6);
        assertEquals(513.783, m.latency().p99(), 1e-9, "the highest process's");
        assertEquals(Map.of("410", 223_236L), m.byStatus());
        assertEquals(0, run.failedConnections());
    }

    @Test
    void readsRedisBenchmarksCsvByItsHeader() throws Exception {
        Measured m = Generators.redisBenchmark("x", sample("redis-benchmark.csv"), 2000);

        assertEquals("redis-benchmark", m.generator());
        assertEquals(2000, m.requests());
        assertEquals(13698.63, m.rps(), 1e-9);
        assertEquals(2000 / 13698.63, m.seconds(), 1e-9);
        assertEquals(1.359, m.latency().p50(), 1e-9);
        assertEquals(29.727, m.latency().p99(), 1e-9);
        assertEquals(33.919, m.latency().max(), 1e-9);
        assertEquals(2.533, m.latency().mean(), 1e-9);
    }
}
