package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.UnixOperatingSystemMXBean;
import dev.seckill.testkit.Stack;
import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The sold-out flood at several connection counts (issue 18; --flood-levels, 1,000, 5,000 and 20,000 by default):
 * purchases of the flash sale's sale once it has sold out, for --flood-seconds at each level, from one user and
 * address per connection. Each level runs in client processes ({@link FloodProcess}) of at most
 * {@link #PER_PROCESS} connections, each connection sending from the moment it opens; the measured window starts
 * once every process has all its connections open, so the level holds them all at once throughout. Each process
 * connects from a loopback address of its own (127.0.0.1, 127.0.0.2, ...): Linux gives the sockets connecting from
 * one address to one destination only about half of the ephemeral port range quickly (~14,000 here) and then scans
 * for each further port, which slows connecting to a crawl; another source address has a range of its own. (An edge
 * that believes X-Forwarded-For only from 127.0.0.1 sees the other processes as one client address each; purchases
 * of a flagged sale are answered before any per-IP limit, so that changes nothing here.) Per level: throughput, latency, answers by status, failed
 * connections, what reached the service (its purchase counter), the edge's re-checks of the flag and the alerts in
 * the edge's error log ("worker_connections are not enough", "Too many open files").
 */
final class FloodLevels {

    /** Connections per client process: well inside the open-files limit a container commonly allows (20,000). */
    static final int PER_PROCESS = 10_000;
    /** Files a client process needs besides its connections (its JVM's jars, the selector, standard streams). */
    private static final int OTHER_FILES = 512;
    private static final String RECHECKS = "seckill_edge_flag_rechecks_total";
    private static final String SHORT_CIRCUITS = "seckill_edge_sold_out_short_circuits_total";
    private static final String PURCHASES = "seckill_purchases_total";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One level. {@code connected}: connects that completed (reconnects included); {@code failedConnections}:
     * connections refused, reset or timed out; {@code noAnswer}: requests that got none; {@code reachedService}: the
     * service's purchase answers meanwhile; {@code rechecks}: the flag's re-checks the edge sent; {@code edgeAlerts}
     * and {@code firstAlert}: lines of level alert or worse the edge logged meanwhile.
     */
    record Level(int connections, int processes, long connected, long failedConnections, long answers, double seconds,
                 double rps, Map<String, Long> byStatus, Map<String, Long> byKind, Measured.Latency latency, long noAnswer,
                 long shortCircuits, long reachedService, long rechecks, long edgeAlerts, String firstAlert) {

        boolean clean() {
            return connected >= connections && failedConnections == 0 && noAnswer == 0 && edgeAlerts == 0;
        }
    }

    private final Stack stack;
    private final Admin admin;
    private final Sampler sampler;
    private final BenchOptions options;

    FloodLevels(Stack stack, Admin admin, Sampler sampler, BenchOptions options) {
        this.stack = stack;
        this.admin = admin;
        this.sampler = sampler;
        this.options = options;
    }

    /** Every level of the options against {@code saleId}, which must be sold out (its flag set at the edge). */
    List<Level> run(long saleId) throws IOException, InterruptedException {
        List<Level> levels = new ArrayList<>();
        int perProcess = perProcess();
        for (int connections : options.floodLevels()) {
            Bench.say("sold-out flood: " + connections + " connections for " + options.floodTime().toSeconds() + " s");
            sampler.mark("flood " + connections);
            levels.add(level(saleId, connections, perProcess));
        }
        return levels;
    }

    private Level level(long saleId, int connections, int perProcess) throws IOException, InterruptedException {
        int processes = (connections + perProcess - 1) / perProcess;
        Map<String, Double> edgeBefore = admin.edgeMetrics();
        Map<String, Double> serviceBefore = admin.serviceMetrics();
        List<String> logBefore = edgeLog();
        List<Client> clients = new ArrayList<>();
        try {
            for (int p = 0; p < processes; p++) {
                int share = connections / processes + (p < connections % processes ? 1 : 0);
                clients.add(Client.start(stack, saleId, share, options.floodTime(),
                        options.firstUser() + (long) p * perProcess, "127.0.0." + (p + 1)));
            }
            for (Client c : clients) {
                c.awaitReady();
            }
            for (Client c : clients) {
                c.go();
            }
            List<JsonNode> results = new ArrayList<>();
            for (Client c : clients) {
                results.add(c.result(options.floodTime().plus(FloodProcess.TIMEOUT).plusSeconds(30)));
            }
            List<String> alerts = alerts(logBefore, edgeLog());
            return merge(connections, processes, results, edgeBefore, admin.edgeMetrics(), serviceBefore,
                    admin.serviceMetrics(), alerts);
        } finally {
            clients.forEach(Client::stop);
        }
    }

    private static Level merge(int connections, int processes, List<JsonNode> results, Map<String, Double> edgeBefore,
                               Map<String, Double> edgeAfter, Map<String, Double> serviceBefore,
                               Map<String, Double> serviceAfter, List<String> alerts) {
        Histogram latency = new Histogram(60_000_000L, 3);
        Map<String, Long> byStatus = new TreeMap<>();
        Map<String, Long> byKind = new TreeMap<>();
        long answers = 0;
        long connected = 0;
        long failed = 0;
        double seconds = 0;
        double rps = 0;
        for (JsonNode r : results) {
            answers += r.path("answers").asLong();
            connected += r.path("connected").asLong();
            failed += r.path("failedConnections").asLong();
            // The processes ran side by side over the same window: their rates add up.
            double s = r.path("seconds").asDouble();
            seconds = Math.max(seconds, s);
            rps += s > 0 ? r.path("answers").asLong() / s : 0;
            r.path("byStatus").fields().forEachRemaining(e -> byStatus.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            r.path("byKind").fields().forEachRemaining(e -> byKind.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            latency.add(FloodProcess.decode(r.path("histogram").asText()));
        }
        return new Level(connections, processes, connected, failed, answers, Report.round(seconds), Report.round(rps),
                byStatus, byKind, Measured.Latency.of(latency), byStatus.getOrDefault("0", 0L),
                (long) delta(edgeBefore, edgeAfter, SHORT_CIRCUITS), (long) delta(serviceBefore, serviceAfter, PURCHASES),
                (long) delta(edgeBefore, edgeAfter, RECHECKS), alerts.size(), alerts.isEmpty() ? null : alerts.get(0));
    }

    /** The change of every series of a metric (all its labels together) between two scrapes. */
    private static double delta(Map<String, Double> before, Map<String, Double> after, String metric) {
        return sum(after, metric) - sum(before, metric);
    }

    private static double sum(Map<String, Double> series, String metric) {
        return series.entrySet().stream().filter(e -> e.getKey().equals(metric) || e.getKey().startsWith(metric + "{"))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /** Lines of level alert, crit or emerg the edge logged since {@code before} was read. */
    private static List<String> alerts(List<String> before, List<String> after) {
        return after.subList(Math.min(before.size(), after.size()), after.size()).stream()
                .filter(l -> l.contains("[alert]") || l.contains("[crit]") || l.contains("[emerg]")).toList();
    }

    private List<String> edgeLog() throws IOException {
        Path log = stack.runDir().resolve("edge/logs/error.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** Connections per client process: {@link #PER_PROCESS}, fewer if the open-files limit (inherited) is lower. */
    private static int perProcess() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os) {
            return (int) Math.max(1, Math.min(PER_PROCESS, os.getMaxFileDescriptorCount() - OTHER_FILES));
        }
        return PER_PROCESS;
    }

    /** A running {@link FloodProcess}: its input (GO), its output lines (READY, RESULT). */
    private static final class Client {
        private final Process process;
        private final Writer in;
        private final CompletableFuture<String> ready = new CompletableFuture<>();
        private final CompletableFuture<String> result = new CompletableFuture<>();

        private Client(Process process) {
            this.process = process;
            this.in = process.outputWriter(StandardCharsets.US_ASCII);
            Thread.ofPlatform().daemon().name("flood-client-out").start(this::read);
        }

        static Client start(Stack stack, long saleId, int connections, Duration length, long firstUser,
                            String source) throws IOException {
            String java = ProcessHandle.current().info().command().orElse("java");
            ProcessBuilder pb = new ProcessBuilder(java, "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), FloodProcess.class.getName(),
                    Integer.toString(stack.edgePort()), Long.toString(saleId), Integer.toString(connections),
                    Long.toString(length.toSeconds()), Long.toString(firstUser), source);
            // The secret goes by environment, never on a command line that any process can read.
            pb.environment().put(FloodProcess.SECRET_ENV, stack.tokenSecret());
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            return new Client(pb.start());
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(FloodProcess.READY)) {
                        ready.complete(line);
                    } else if (line.startsWith(FloodProcess.RESULT)) {
                        result.complete(line.substring(FloodProcess.RESULT.length()));
                    }
                }
            } catch (IOException e) {
                result.completeExceptionally(e);
            }
            ready.complete("ended");
            result.completeExceptionally(new IOException("the flood client ended without a result"));
        }

        /** Until every connection is open, or as long as a client may take to open them (it starts anyway). */
        void awaitReady() throws InterruptedException {
            try {
                ready.get(FloodProcess.OPENING.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                Bench.say("sold-out flood: a client did not open all its connections in time: " + e);
            }
        }

        void go() throws IOException {
            in.write(FloodProcess.GO + "\n");
            in.flush();
        }

        JsonNode result(Duration timeout) throws IOException, InterruptedException {
            try {
                return JSON.readTree(result.get(timeout.toSeconds(), TimeUnit.SECONDS));
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("failed to get the result of a flood client: " + e, e);
            }
        }

        void stop() {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
