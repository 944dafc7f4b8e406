package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs wrk (in C: the most frugal generator, for the edge's own ceilings) with a {@code done} hook that prints its
 * summary as JSON: requests, run time, non-2xx answers, socket errors and the latency distribution wrk records.
 */
public final class Wrk {

    static final String MARK = "seckill-wrk-summary ";
    private static final String DONE = """
            done = function(s, latency)
              local e, ms = s.errors, function(us) return us / 1000 end
              io.write(string.format('%s{"requests": %%d, "seconds": %%f, "non2xx": %%d, "socketErrors": %%d, '
                .. '"latency": {"p50": %%f, "p90": %%f, "p99": %%f, "max": %%f, "mean": %%f}}\\n', s.requests,
                s.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout, ms(latency:percentile(50)),
                ms(latency:percentile(90)), ms(latency:percentile(99)), ms(latency.max), ms(latency.mean)))
            end
            """.formatted(MARK);

    /** wrk's summary, latencies in milliseconds. */
    private record Summary(long requests, double seconds, long non2xx, long socketErrors, Measured.Latency latency) {
    }

    private Wrk() {
    }

    /** {@code wrk -t threads -c connections -d duration --latency [-s script] url}, with extra environment. */
    public static Measured run(String name, String url, int threads, int connections, Duration duration, Path script,
                        Map<String, String> env) throws IOException, InterruptedException {
        Path lua = Files.createTempFile("wrk-", ".lua");
        try {
            Files.writeString(lua, (script == null ? "" : "dofile(\"" + script.toAbsolutePath() + "\")\n") + DONE);
            ProcessBuilder pb = new ProcessBuilder("wrk", "-t" + threads, "-c" + connections,
                    "-d" + duration.toSeconds() + "s", "--timeout", "10s", "-s", lua.toString(), url);
            pb.environment().putAll(env);
            return parse(name, exec(pb, "", duration.toSeconds() + 30));
        } finally {
            Files.deleteIfExists(lua);
        }
    }

    /**
     * Runs a generator's process (wrk, redis-benchmark, redis-cli) with {@code stdin}, its errors in its output; the
     * output, or an IOException with it when it fails or outlasts {@code seconds}.
     */
    public static String exec(ProcessBuilder pb, String stdin, long seconds) throws IOException, InterruptedException {
        Process p = pb.redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", pb.command()) + " failed: " + out);
        }
        return out;
    }

    /** The measurement in wrk's output {@code out}, from the summary line its {@code done} hook printed. */
    public static Measured parse(String name, String out) throws IOException {
        int at = out.lastIndexOf(MARK);
        if (at < 0) {
            throw new IOException("no summary in wrk's output for " + name + ": " + out);
        }
        Summary s = Section.JSON.readValue(out.substring(at + MARK.length()).lines().findFirst().orElseThrow(),
                Summary.class);
        Map<String, Long> byStatus = new LinkedHashMap<>(Map.of("2xx/3xx", s.requests() - s.non2xx()));
        byStatus.put("non-2xx", s.non2xx());
        if (s.socketErrors() > 0) {
            byStatus.put("socket errors", s.socketErrors());
        }
        return new Measured(name, "wrk", s.requests(), s.seconds(), s.requests() / s.seconds(), byStatus, byStatus,
                s.latency(), null);
    }
}
