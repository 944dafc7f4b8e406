package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.BenchOptions;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Steady;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Section;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.UnixOperatingSystemMXBean;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.round;

/**
 * The sold-out flood at each of --flood-levels connections for --flood-seconds, one user and address per connection,
 * from client processes ({@link #main}) of at most {@link #PER_PROCESS} connections, each from a loopback address of
 * its own (Linux gives one source address only ~14,000 ports to one destination quickly). A client says READY once
 * its connections are open, measures from the end of its standard input (every client ready) and prints its Part.
 */
public record FloodLevels(Scenario s) {

    /** Connections per client process: well inside the open-files limit a container commonly allows (20,000). */
    static final int PER_PROCESS = 10_000;
    private static final String SECRET_ENV = "SECKILL_FLOOD_TOKEN_SECRET";
    private static final String READY = "READY";
    private static final String PART = "PART ";
    private static final Duration OPENING = Duration.ofSeconds(60);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * One level; {@code edgeAlerts}: lines of level alert or worse in the edge's error log meanwhile; {@code cpu}:
     * each part's CPU per answer from every connection open to the last answer (the clients are the bench's).
     */
    public record Level(int connections, int processes, Measured measured, LoadClient.Wire wire, long shortCircuits,
                 long reachedService, long rechecks, long edgeAlerts, String firstAlert, Sampler.PerUnit cpu) {

        public boolean clean() {
            return wire.connected() >= connections && wire.failed() == 0 && measured.count("0") == 0 && edgeAlerts == 0;
        }
    }

    /** What one client measured; {@code latency}: its HdrHistogram (µs) in the library's encoding. */
    record Part(Measured measured, byte[] latency, LoadClient.Wire wire) {

        public static Part of(Measured measured, Histogram h, LoadClient.Wire wire) {
            ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            return new Part(measured, Arrays.copyOf(b.array(), h.encodeIntoByteBuffer(b)), wire);
        }
    }

    /**
     * The bench's step: the flood levels on the flash sale's sale, once it has sold out (a sale with stock left would
     * sell on); after the flash sale's payments, whose lapsed units went on sale again.
     */
    public static List<Section> step(Scenario s) throws Exception {
        long sale = s.found().flashSale().saleId();
        Long remaining = s.stats(sale).redisRemaining();
        if (s.o().floodLevels().isEmpty() || remaining == null || remaining != 0) {
            Progress.say(s.o().floodLevels().isEmpty() ? "sold-out flood: none asked for" : "sold-out flood: skipped, "
                    + "sale " + sale + " did not sell out (remaining " + remaining + ")");
            return List.of();
        }
        return List.of(section(new FloodLevels(s).run(sale), s.o()));
    }

    /** Every level against {@code saleId}, which must be sold out (its flag set at the edge). */
    public List<Level> run(long saleId) throws IOException, InterruptedException {
        List<Level> levels = new ArrayList<>();
        for (int connections : s.o().floodLevels()) {
            Progress.say("sold-out flood: " + connections + " connections for " + s.o().floodTime().toSeconds() + " s");
            s.sampler().mark("flood " + connections);
            levels.add(level(saleId, connections));
        }
        return levels;
    }

    private Level level(long saleId, int connections) throws IOException, InterruptedException {
        // Fewer per process when the (inherited) open-files limit is lower; 512 files for the JVM itself.
        long perProcess = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean os
                ? Math.max(1, Math.min(PER_PROCESS, os.getMaxFileDescriptorCount() - 512)) : PER_PROCESS;
        int processes = (int) ((connections + perProcess - 1) / perProcess);
        Map<String, Double> edge = s.meters().edge();
        Map<String, Double> service = s.meters().service();
        int logLines = edgeLog().size();
        List<Process> clients = new ArrayList<>();
        try {
            for (int p = 0; p < processes; p++) {
                int share = connections / processes + (p < connections % processes ? 1 : 0);
                clients.add(start(saleId, share, s.o().firstUser() + p * perProcess, "127.0.0." + (p + 1)));
            }
            for (Process c : clients) {
                line(c, READY);
            }
            long from = s.sampler().open();
            for (Process c : clients) {
                c.getOutputStream().close();
            }
            List<Part> parts = new ArrayList<>();
            for (Process c : clients) {
                parts.add(Section.JSON.readValue(line(c, PART), Part.class));
            }
            Measured measured = merge("flood " + connections, parts);
            // Closed while the clients still live: an exited process's CPU is no longer read.
            Sampler.PerUnit cpu = s.sampler().close("flood " + connections, from, measured.requests());
            List<String> alerts = edgeLog().stream().skip(logLines)
                    .filter(l -> l.contains("[alert]") || l.contains("[crit]") || l.contains("[emerg]")).toList();
            Map<String, Double> edgeAfter = s.meters().edge();
            return new Level(connections, processes, measured,
                    new LoadClient.Wire(parts.stream().mapToLong(p -> p.wire().connected()).sum(),
                            parts.stream().mapToLong(p -> p.wire().failed()).sum()),
                    Meters.delta(edge, edgeAfter, Sampler.SHORT_CIRCUITS),
                    Meters.delta(service, s.meters().service(), "seckill_purchases_total"),
                    Meters.delta(edge, edgeAfter, "seckill_edge_flag_rechecks_total"), alerts.size(),
                    alerts.isEmpty() ? null : alerts.getFirst(), cpu);
        } finally {
            for (Process c : clients) {
                c.destroyForcibly().waitFor();
            }
        }
    }

    /** The clients' measurements as one: they ran side by side over the same window, so their rates add up. */
    public static Measured merge(String name, List<Part> parts) {
        Histogram latency = Measured.histogram();
        Map<String, Long> byStatus = new TreeMap<>();
        Map<String, Long> byKind = new TreeMap<>();
        for (Part p : parts) {
            latency.add(Histogram.decodeFromByteBuffer(ByteBuffer.wrap(p.latency()), 0));
            p.measured().byStatus().forEach((k, v) -> byStatus.merge(k, v, Long::sum));
            p.measured().byKind().forEach((k, v) -> byKind.merge(k, v, Long::sum));
        }
        return new Measured(name, "bench client", latency.getTotalCount(), round(parts.stream()
                .mapToDouble(p -> p.measured().seconds()).max().orElse(0)), round(parts.stream()
                .mapToDouble(p -> p.measured().rps()).sum()), byStatus, byKind, Measured.Latency.of(latency), null);
    }

    private Process start(long saleId, int connections, long firstUser, String source) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xms32m",
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                FloodLevels.class.getName(), Integer.toString(s.stack().edgePort()), Long.toString(saleId),
                Integer.toString(connections), Long.toString(s.o().floodTime().toSeconds()),
                Long.toString(firstUser), source).redirectError(ProcessBuilder.Redirect.INHERIT);
        // The secret goes by environment, never on a command line that any process can read.
        pb.environment().put(SECRET_ENV, s.stack().tokenSecret());
        return pb.start();
    }

    /** The rest of the client's first line that starts with {@code prefix} (the JVM may print others). */
    private static String line(Process c, String prefix) throws IOException {
        for (String l = c.inputReader().readLine(); l != null; l = c.inputReader().readLine()) {
            if (l.startsWith(prefix)) {
                return l.substring(prefix.length());
            }
        }
        throw new IOException("a flood client ended before its " + prefix.strip());
    }

    private List<String> edgeLog() throws IOException {
        Path log = s.stack().runDir().resolve("edge/logs/error.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /**
     * The report's section ("floods" in report.json), and its target: each edge holds 20,000 clients, and the largest
     * level of at least that many is the test of it.
     */
    static Section section(List<Level> levels, BenchOptions o) {
        Section s = new Section("floods", "The sold-out flood by connections").text("Purchases of the sold-out sale, "
                + "%d s per level from processes of at most %,d connections, measured once every connection is open. "
                + "Closed loop: at saturation latency ~ connections / throughput. \"reached the service\": the flag's "
                + "re-checks, one per interval.", o.floodTime().toSeconds(), PER_PROCESS)
                .table("connections", "processes", "answers", "req/s", "p50 ms", "p99 ms", "max ms", "answers by kind",
                        "no answer", "failed connections", "edge alerts", "answered by the flag",
                        "reached the service", "re-checks", "edge CPU µs per answer");
        for (Level l : levels) {
            Measured m = l.measured();
            s.row(f("%,d", l.connections()), l.processes(), f("%,d", m.requests()), f("**%,.0f**", m.rps()),
                    f("%.1f", m.latency().p50()), f("**%.1f**", m.latency().p99()), f("%.1f", m.latency().max()),
                    m.byKind(), m.count("0"), l.wire().failed(), l.edgeAlerts() == 0 ? "0"
                            : l.edgeAlerts() + ": " + l.firstAlert(), f("%,d", l.shortCircuits()), l.reachedService(),
                    l.rechecks(), f("%.1f", l.cpu().microsPerUnit().getOrDefault("edge", 0.0)));
        }
        levels.stream().filter(l -> l.connections() >= 20_000).reduce((a, b) -> b).ifPresent(l -> s.goal(f("sold-out "
                + "flood at %,d connections: failed connections, requests without an answer, edge alerts",
                l.connections()), f("%d, %d, %d", l.wire().failed(), l.measured().count("0"), l.edgeAlerts()),
                "0, 0, 0", l.clean()));
        return s.data(levels);
    }

    /**
     * A client process: EDGE_PORT SALE_ID CONNECTIONS SECONDS FIRST_USER SOURCE_ADDRESS, the token secret in
     * {@value #SECRET_ENV}; each connection sends from the moment it opens (the edge cuts an idle one).
     */
    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        long sale = Long.parseLong(args[1]);
        int connections = Integer.parseInt(args[2]);
        Duration length = Duration.ofSeconds(Long.parseLong(args[3]));
        Users users = new Users(Objects.requireNonNull(System.getenv(SECRET_ENV), SECRET_ENV + " is not set"),
                Long.parseLong(args[4]), connections);
        CountDownLatch open = new CountDownLatch(connections);
        Steady steady = Steady.warm(i -> new LoadClient.Request(users.purchase(i % connections, sale, port), null),
                total -> open.countDown());
        Thread.ofPlatform().daemon().start(() -> {
            try {
                if (!open.await(OPENING.toSeconds(), TimeUnit.SECONDS)) {
                    System.err.println("flood: not every connection opened within " + OPENING.toSeconds() + " s");
                }
                System.out.println(READY);
                System.in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException | InterruptedException e) {
                System.err.println("flood: " + e);
            }
            long t0 = System.nanoTime();
            steady.window(t0, t0 + length.toNanos());
        });
        LoadClient.Wire wire = LoadClient.run(port, InetAddress.getByName(args[5]), connections, steady,
                System.nanoTime() + OPENING.plus(length).plus(TIMEOUT).toNanos(), TIMEOUT);
        System.out.println(PART + new ObjectMapper().writeValueAsString(Part.of(steady.result("flood"),
                steady.histogram(), wire)));
    }
}
