package dev.seckill.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs wrk (Debian's, in C: the most frugal generator for the edge's own ceilings) and reads its summary: requests,
 * req/s, non-2xx answers, socket errors and the latency distribution wrk computes itself.
 */
final class Wrk {

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([0-9.]+)(us|ms|s|m)");
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s+(50|90|99)%\\s+([0-9.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE);
    private static final Pattern LATENCY = Pattern.compile("Latency\\s+([0-9.]+)(us|ms|s|m)\\s+[0-9.]+\\w+\\s+([0-9.]+)(us|ms|s|m)");

    private Wrk() {
    }

    /** {@code wrk -t threads -c connections -d duration --latency [-s script] url}, with extra environment. */
    static Measured run(String name, String url, int threads, int connections, Duration duration, Path script,
                        Map<String, String> env) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("wrk", "-t" + threads, "-c" + connections,
                "-d" + duration.toSeconds() + "s", "--timeout", "10s", "--latency"));
        if (script != null) {
            cmd.addAll(List.of("-s", script.toString()));
        }
        cmd.add(url);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(duration.toSeconds() + 30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("wrk failed for " + name + ": " + out);
        }
        return parse(name, out);
    }

    static Measured parse(String name, String out) throws IOException {
        Matcher requests = REQUESTS.matcher(out);
        Matcher rps = RPS.matcher(out);
        Matcher latency = LATENCY.matcher(out);
        if (!requests.find() || !rps.find() || !latency.find()) {
            throw new IOException("unreadable wrk output for " + name + ": " + out);
        }
        long total = Long.parseLong(requests.group(1));
        Matcher non2xx = NON_2XX.matcher(out);
        long bad = non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0;
        Map<String, Long> byStatus = new LinkedHashMap<>();
        byStatus.put("2xx/3xx", total - bad);
        byStatus.put("non-2xx", bad);
        Matcher socket = SOCKET.matcher(out);
        if (socket.find()) {
            long errors = 0;
            for (int g = 1; g <= 4; g++) {
                errors += Long.parseLong(socket.group(g));
            }
            byStatus.put("socket errors", errors);
        }
        Map<String, Double> pct = new LinkedHashMap<>();
        Matcher m = PERCENTILE.matcher(out);
        while (m.find()) {
            pct.put(m.group(1), millis(m.group(2), m.group(3)));
        }
        double seconds = millis(requests.group(2), requests.group(3)) / 1000;
        Measured.Latency l = new Measured.Latency(pct.getOrDefault("50", 0.0), pct.getOrDefault("90", 0.0),
                pct.getOrDefault("99", 0.0), millis(latency.group(3), latency.group(4)), millis(latency.group(1), latency.group(2)));
        return new Measured(name, "wrk", total, seconds, Double.parseDouble(rps.group(1)), byStatus, byStatus, l, null);
    }

    private static double millis(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            case "m" -> v * 60_000;
            default -> v;
        };
    }
}
