package dev.seckill.system.edge;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An edge of its own for a test: the project's nginx config, started by {@code bin/lib/edge.sh} (the code
 * {@code bin/seckill} runs for the edge) with its own run directory next to the test stack's, a free port and the
 * knobs the test gives, usually in front of an {@link UpstreamStub}. The edge script rather than
 * {@code bin/seckill up|restart edge}: those may rebuild the Java modules first, which an edge test must not do.
 */
public final class EdgeInstance implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final String EDGE_SCRIPT = "bin/lib/edge.sh";

    /**
     * Knobs every test edge gets unless the test says otherwise: X-Forwarded-For trusted from loopback (so a test
     * can act as many clients), limits too high to matter, and the rest pinned so the developer's shell
     * environment cannot change a test.
     */
    static final Map<String, String> DEFAULTS = Map.ofEntries(
            Map.entry("SECKILL_EDGE_TRUSTED_PROXIES", "127.0.0.1"),
            Map.entry("SECKILL_EDGE_RATE", "1000"),
            Map.entry("SECKILL_EDGE_BURST", "1000"),
            Map.entry("SECKILL_EDGE_READ_RATE", "1000"),
            Map.entry("SECKILL_EDGE_READ_BURST", "1000"),
            Map.entry("SECKILL_EDGE_ORDER_RATE", "1000"),
            Map.entry("SECKILL_EDGE_ORDER_BURST", "1000"),
            Map.entry("SECKILL_EDGE_LOGIN_RATE", "1000"),
            Map.entry("SECKILL_EDGE_LOGIN_BURST", "1000"),
            Map.entry("SECKILL_EDGE_CONN_PER_IP", "64"),
            Map.entry("SECKILL_EDGE_SOLDOUT_TTL", "30"),
            Map.entry("SECKILL_EDGE_ADMIT_RATE", "100000"),
            Map.entry("SECKILL_EDGE_ADMIT_IN_FLIGHT", "10000"),
            // Many test edges run at once: a few thousand connections each (a worker allocates them all up front).
            Map.entry("SECKILL_EDGE_WORKER_CONNECTIONS", "4096"),
            Map.entry("SECKILL_EDGE_NOFILE", "8192"),
            Map.entry("SECKILL_EDGE_BACKLOG", "4096"),
            Map.entry("SECKILL_EDGE_READ_TIMEOUT", "10s"),
            Map.entry("SECKILL_EDGE_MICROCACHE_TTL", "1s"),
            Map.entry("SECKILL_EDGE_WORKERS", "2"),
            Map.entry("SECKILL_EDGE_LISTEN", "127.0.0.1"),
            // Empty means the default: the repository's openresty/html, installed into the edge's run directory.
            Map.entry("SECKILL_EDGE_HTML_ROOT", ""));

    private final Stack stack = Stack.get();
    private final Map<String, String> env = new HashMap<>();
    private final int port;
    private final Path runDir;

    /** The port the edge listens on (127.0.0.1). */
    public int port() {
        return port;
    }

    private EdgeInstance(String name, Map<String, String> knobs) {
        this.port = freePort();
        this.runDir = stack.runDir().resolveSibling("edge-it").resolve(name);
        env.putAll(DEFAULTS);
        env.putAll(knobs);
        env.put("SECKILL_RUN_DIR", runDir.toString());
        env.put("SECKILL_EDGE_PORT", Integer.toString(port));
        // A run directory left by an earlier, interrupted run: stop what it recorded, then start from nothing.
        stack.script(env, COMMAND_TIMEOUT, EDGE_SCRIPT, "stop");
        deleteTree(runDir);
    }

    /** Starts an edge; knobs are SECKILL_EDGE_* variables (on top of {@link #DEFAULTS}). */
    public static EdgeInstance start(String name, Map<String, String> knobs) {
        EdgeInstance edge = new EdgeInstance(name, knobs);
        edge.stack.script(edge.env, COMMAND_TIMEOUT, EDGE_SCRIPT, "start");
        return edge;
    }

    /** Headers that make a request come from client {@code ip} (X-Forwarded-For, trusted from loopback). */
    public static String[] from(String ip, String... more) {
        String[] h = new String[more.length + 2];
        h[0] = "X-Forwarded-For";
        h[1] = ip;
        System.arraycopy(more, 0, h, 2, more.length);
        return h;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** Re-renders the config with changed knobs and reloads nginx (HUP); returns before the new workers serve. */
    public void reload(Map<String, String> changedKnobs) {
        env.putAll(changedKnobs);
        stack.script(env, COMMAND_TIMEOUT, EDGE_SCRIPT, "reload");
    }

    /** The edge's rendered configuration file {@code name} (nginx.conf, conf.d/00-tunables.conf, ...). */
    public String config(String name) {
        Path file = runDir.resolve("edge/conf").resolve(name);
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read " + file, e);
        }
    }

    /** nginx's error log of this edge (warnings and worse), empty when it has written none. */
    public String errorLog() {
        Path log = runDir.resolve("edge/logs/error.log");
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read " + log, e);
        }
    }

    /** The edge's counters as Prometheus text (loopback-only location). */
    public String metrics(HttpJson http) {
        return http.get(url("/edge/metrics")).body();
    }

    @Override
    public void close() {
        stack.script(env, COMMAND_TIMEOUT, EDGE_SCRIPT, "stop");
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to find a free port", e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException("failed to delete " + p, e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("failed to delete " + dir, e);
        }
    }
}
