package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * The field's load generators, wrk (in C: the most frugal, for the edge's own ceilings) and redis-benchmark, run by
 * bench/ceilings.sh, which keeps each one's own report in a file; and the reading of those reports.
 */
public final class Generators {

    /** The line bench/wrk-report.lua adds to wrk's report. */
    static final String WRK_SUMMARY = "seckill-wrk-summary ";

    /**
     * A wrk process's summary, latencies in milliseconds; {@code errors}: its socket errors by kind (connect, read,
     * write, timeout); {@code byKind}: its answers by {@link Answer#kind}, when its request script counts them.
     */
    public record Summary(long requests, double seconds, long non2xx, long socketErrors, Map<String, Long> errors,
                          Map<String, Long> byKind, Measured.Latency latency) {

        public long error(String kind) {
            return errors == null ? 0 : errors.getOrDefault(kind, 0L);
        }
    }

    /**
     * A flood level's wrk processes, and {@code open}: the most of its connections seen open at once, and after how
     * many milliseconds all of them were (-1: never).
     */
    public record Flood(List<Summary> processes, Open open) {

        public record Open(long open, long millis) {
        }

        /**
         * The processes as one measurement: side by side over the same run, so their rates add up; wrk gives
         * percentiles, not histograms, so p50, p90 and p99 are the highest process's; no answer ({@link
         * Answer#NO_ANSWER}): their read, write and timeout errors.
         */
        public Measured measured(String name) {
            Map<String, Long> byKind = new TreeMap<>();
            long noAnswer = 0;
            for (Summary p : processes) {
                p.byKind().forEach((k, v) -> byKind.merge(k, v, Long::sum));
                noAnswer += p.error("read") + p.error("write") + p.error("timeout");
            }
            if (noAnswer > 0) {
                byKind.put(Answer.NO_ANSWER, noAnswer);
            }
            Map<String, Long> byStatus = new TreeMap<>();
            byKind.forEach((k, v) -> byStatus.merge(k.split(" ", 2)[0], v, Long::sum));
            long requests = processes.stream().mapToLong(Summary::requests).sum();
            return new Measured(name, "wrk", requests, processes.stream().mapToDouble(Summary::seconds).max()
                    .orElse(0), processes.stream().mapToDouble(p -> p.requests() / p.seconds()).sum(), byStatus,
                    byKind, new Measured.Latency(highest(Measured.Latency::p50), highest(Measured.Latency::p90),
                    highest(Measured.Latency::p99), highest(Measured.Latency::max), processes.stream()
                    .mapToDouble(p -> p.latency().mean() * p.requests()).sum() / Math.max(1, requests)), null);
        }

        /** The processes' failed connects. */
        public long failedConnections() {
            return processes.stream().mapToLong(p -> p.error("connect")).sum();
        }

        private double highest(ToDoubleFunction<Measured.Latency> which) {
            return processes.stream().mapToDouble(p -> which.applyAsDouble(p.latency())).max().orElse(0);
        }
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
     * One level of the sold-out flood (bench/ceilings.sh's flood step): a connection per user of {@code users}, each
     * request a purchase of the sold-out {@code saleId} through the edge signed in as the next user, for {@code
     * duration}; each wrk process's report in {@code dir}, and their summaries. The users' tokens go to wrk in a file
     * only the bench's user may read, deleted after.
     */
    public static Flood flood(Stack stack, Path dir, Users users, long saleId, Duration duration)
            throws IOException, InterruptedException {
        Path file = Files.createTempFile(stack.runDir(), "flood-users", ".txt",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(file, IntStream.range(0, users.size())
                    .mapToObj(i -> users.token(i) + " " + Users.address(users.id(i))).toList());
            ProcessBuilder pb = new ProcessBuilder(script(stack), "flood", dir.toString(),
                    Integer.toString(stack.edgePort()), file.toString());
            pb.environment().putAll(Map.of("CONNECTIONS", Integer.toString(users.size()), "DURATION",
                    duration.toSeconds() + "s", "SALE_ID", Long.toString(saleId)));
            exec(pb, "", duration.toSeconds() + 120);
        } finally {
            Files.deleteIfExists(file);
        }
        return flood(dir, users.size());
    }

    /** The flood level of {@code connections} whose reports are in {@code dir}. */
    public static Flood flood(Path dir, int connections) throws IOException {
        List<Summary> summaries = new ArrayList<>();
        for (int p = 1; Files.exists(dir.resolve("flood-" + connections + "-" + p + ".txt")); p++) {
            summaries.add(summary(dir.resolve("flood-" + connections + "-" + p + ".txt")));
        }
        Flood.Open open = Section.JSON.readValue(dir.resolve("flood-" + connections + "-open.json").toFile(),
                Flood.Open.class);
        return new Flood(summaries, open);
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
        Summary s = summary(file);
        Map<String, Long> byStatus = new LinkedHashMap<>(Map.of("2xx/3xx", s.requests() - s.non2xx()));
        byStatus.put("non-2xx", s.non2xx());
        if (s.socketErrors() > 0) {
            byStatus.put("socket errors", s.socketErrors());
        }
        return new Measured(name, "wrk", s.requests(), s.seconds(), s.requests() / s.seconds(), byStatus, byStatus,
                s.latency(), null);
    }

    /** The summary line bench/wrk-report.lua added to a wrk report. */
    public static Summary summary(Path file) throws IOException {
        String out = Files.readString(file);
        int at = out.lastIndexOf(WRK_SUMMARY);
        if (at < 0) {
            throw new IOException("no summary in wrk's report " + file + ": " + out);
        }
        return Section.JSON.readValue(out.substring(at + WRK_SUMMARY.length()).lines().findFirst().orElseThrow(),
                Summary.class);
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
