package dev.seckill.bench.measure;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A real pidstat report (src/test/resources/tools/pidstat.txt, two intervals), read into samples and windows. */
class SamplerTest {

    private static final long SECOND = 1_000_000_000L;
    /** In that report: a busy shell loop as the service, pidstat itself as the bench. */
    private static final Map<Long, String> PARTS = Map.of(25883L, "service", 25953L, Sampler.BENCH);

    private static List<Sampler.Sample> samples() throws Exception {
        String report = Files.readString(Path.of(SamplerTest.class.getResource("/tools/pidstat.txt").toURI()));
        List<Sampler.Sample> samples = new ArrayList<>();
        List<String> raw = new ArrayList<>();
        Sampler.read(new BufferedReader(new StringReader(report)), raw::add, interval -> samples.add(
                Sampler.sample((samples.size() + 1) * SECOND, SECOND, interval, PARTS::get,
                        samples.isEmpty() ? null : samples.getLast())));
        assertEquals(report.lines().toList(), raw, "every line is kept as pidstat printed it");
        return samples;
    }

    @Test
    void eachIntervalAddsItsProcessesCpuToTheirPartsAndTheirMemoryIsTheirs() throws Exception {
        List<Sampler.Sample> s = samples();

        assertEquals(2, s.size());
        assertEquals(656_900, s.get(0).cpuMicros().get("service"), "65.69 % of a second, in µs");
        assertEquals(656_900 + 340_000, s.get(1).cpuMicros().get("service"));
        assertEquals(9_800, s.get(0).cpuMicros().get(Sampler.BENCH));
        assertEquals(1428, s.get(1).rssKb().get("service"));
        assertEquals(0, s.get(1).rssKb().get("edge"), "no process of the edge in the report");
        double first = 1.96 + 4.90 + 14.71 + 7.84 + 6.86 + 6.86 + 77.45 + 65.69 + 0.98;
        assertEquals(Math.round(first * 10_000), s.get(0).cpuMicros().get(Sampler.MACHINE), 10,
                "the machine's: every process's");
    }

    @Test
    void aWindowCountsTheShareOfEachIntervalInsideIt() throws Exception {
        List<Sampler.Sample> s = samples();
        double second = 2.00 + 8.00 + 10.00 + 15.00 + 10.00 + 16.00 + 8.00 + 32.00 + 56.00 + 34.00;

        Sampler.Cpu whole = Sampler.cpu("second interval", s, SECOND, 2 * SECOND);
        assertEquals(1.0, whole.seconds(), 1e-9);
        assertEquals(0.34, whole.cores().get("service"), 0.005);
        assertEquals(0.0, whole.cores().get(Sampler.BENCH), 0.005);
        assertEquals((second - 34) / 100, whole.cores().get("others"), 0.005);
        assertEquals(Sampler.MACHINE_CORES - second / 100, whole.cores().get("idle"), 0.005);

        Sampler.Cpu half = Sampler.cpu("its second half", s, SECOND * 3 / 2, 3 * SECOND);
        assertEquals(0.5, half.seconds(), 1e-9, "clipped to the last sample");
        assertEquals(0.34, half.cores().get("service"), 0.005, "the interval's average");
    }
}
