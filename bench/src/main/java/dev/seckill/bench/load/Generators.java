package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The field's load generators, wrk (in C: the most frugal, for the edge's own ceilings) and redis-benchmark, run by
 * bench/ceilings.sh, which keeps each one's own report in a file; and the reading of those reports.
 */
public final class Generators {

    /** The line bench/wrk-report.lua adds to wrk's report. */
    static final String WRK_SUMMARY = "seckill-wrk-summary ";

    /** wrk's summary, latencies in milliseconds. */
    private record Summary(long requests, double seconds, long non2xx, long socketErrors, Measured.Latency latency) {
    }

    private Generators() {
    }

    /** wrk of {@code url} ({@code script} its requests, or null) for {@code duration}, its report in {@code file}. */
    public static Measured wrk(Stack stack, Path file, String name, String url, int connections, Duration duration,
                               Path script, Map<String, String> env) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(script(stack), "wrk", file.toString(), url));
        if (script != null) {
            cmd.add(script.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        pb.environment().putAll(Map.of("CONNECTIONS", Integer.toString(connections), "DURATION",
                duration.toSeconds() + "s"));
        exec(pb, "", duration.toSeconds() + 30);
        return wrk(name, file);
    }

    /**
     * redis-benchmark of {@code command} on the Redis at {@code port}, signed in as {@code user} with
     * {@code password} (none when null), its report in {@code file}.
     */
    public static Measured redisBenchmark(Stack stack, Path file, String name, int port, int requests, String user,
                                          String password, List<String> command)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(script(stack), "redis-benchmark", file.toString(),
                Integer.toString(port), Integer.toString(requests)));
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (user != null) {
            // By environment: never on a command line of ours.
            pb.environment().putAll(Map.of("BENCH_REDIS_USER", user, "BENCH_REDIS_PASSWORD", password));
        }
        exec(pb, "", 120);
        return redisBenchmark(name, file, requests);
    }

    private static String script(Stack stack) {
        return stack.home().resolve("bench/ceilings.sh").toString();
    }

    /**
     * Runs a process (a generator, redis-cli) with {@code stdin}, its errors in its output; the output, or an
     * IOException with it when it fails or outlasts {@code seconds}.
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

    /** The measurement in a wrk report, from the summary line bench/wrk-report.lua added to it. */
    public static Measured wrk(String name, Path file) throws IOException {
        String out = Files.readString(file);
        int at = out.lastIndexOf(WRK_SUMMARY);
        if (at < 0) {
            throw new IOException("no summary in wrk's report " + file + ": " + out);
        }
        Summary s = Section.JSON.readValue(out.substring(at + WRK_SUMMARY.length()).lines().findFirst().orElseThrow(),
                Summary.class);
        Map<String, Long> byStatus = new LinkedHashMap<>(Map.of("2xx/3xx", s.requests() - s.non2xx()));
        byStatus.put("non-2xx", s.non2xx());
        if (s.socketErrors() > 0) {
            byStatus.put("socket errors", s.socketErrors());
        }
        return new Measured(name, "wrk", s.requests(), s.seconds(), s.requests() / s.seconds(), byStatus, byStatus,
                s.latency(), null);
    }

    /** The measurement in a redis-benchmark --csv report of one command, {@code requests} calls. */
    public static Measured redisBenchmark(String name, Path file, long requests) throws IOException {
        List<String> lines = Files.readAllLines(file).stream().map(l -> l.replace("\"", "")).toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("test,")).findFirst()
                .orElseThrow(() -> new IOException("no CSV header in redis-benchmark's report " + file)));
        if (header + 1 >= lines.size()) {
            throw new IOException("no result in redis-benchmark's report " + file);
        }
        List<String> columns = List.of(lines.get(header).split(","));
        String[] f = lines.get(header + 1).split(",");
        double rps = Double.parseDouble(f[columns.indexOf("rps")]);
        Map<String, Long> calls = Map.of("calls", requests);
        return new Measured(name, "redis-benchmark", requests, requests / rps, rps, calls, calls, new Measured.Latency(
                Double.parseDouble(f[columns.indexOf("p50_latency_ms")]), 0,
                Double.parseDouble(f[columns.indexOf("p99_latency_ms")]),
                Double.parseDouble(f[columns.indexOf("max_latency_ms")]),
                Double.parseDouble(f[columns.indexOf("avg_latency_ms")])), null);
    }
}
