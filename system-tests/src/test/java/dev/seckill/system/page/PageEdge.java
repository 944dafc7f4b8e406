package dev.seckill.system.page;

import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A second edge for a page test: the project's edge config, started by bin/seckill with its own run directory (next
 * to the stack's), a free port and the test's knobs, in front of the stack's real service and serving the
 * repository's page.
 */
final class PageEdge implements AutoCloseable {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    /** Components whose pid files the edge's run directory borrows while bin/seckill starts the edge. */
    private static final String[] JAVA_COMPONENTS = {"service", "writer"};

    private final Stack stack = Stack.get();
    private final Map<String, String> env = new HashMap<>();
    private final Path runDir;
    private final int port;

    private PageEdge(String name, Map<String, String> knobs) {
        port = freePort();
        runDir = stack.runDir().resolveSibling(stack.runDir().getFileName() + "-page-edge-" + name);
        // Pinned, so the caller's shell (or the test stack's exports) cannot change the test.
        env.put("SECKILL_EDGE_TRUSTED_PROXIES", "");
        env.put("SECKILL_EDGE_LISTEN", "127.0.0.1");
        env.put("SECKILL_EDGE_WORKERS", "1");
        env.put("SECKILL_EDGE_MICROCACHE_TTL", "1s");
        env.put("SECKILL_EDGE_SOLDOUT_TTL", "5");
        env.put("SECKILL_EDGE_HTML_ROOT", "");
        env.putAll(knobs);
        env.put("SECKILL_RUN_DIR", runDir.toString());
        env.put("SECKILL_EDGE_PORT", Integer.toString(port));
        env.put("SECKILL_EDGE_UPSTREAM", "127.0.0.1:" + stack.servicePort());
    }

    /** Starts an edge; knobs are SECKILL_EDGE_* variables. */
    static PageEdge start(String name, Map<String, String> knobs) {
        PageEdge edge = new PageEdge(name, knobs);
        // An edge left by an interrupted run (its pid file is in the same directory): stop it first.
        edge.stack.seckill(edge.env, COMMAND_TIMEOUT, "down", "edge");
        edge.borrowJavaPids();
        try {
            edge.stack.seckill(edge.env, COMMAND_TIMEOUT, "restart", "edge");
        } finally {
            edge.returnJavaPids();
        }
        return edge;
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The edge's counters (Prometheus text, loopback-only location). */
    String metrics() {
        return new HttpJson().get(url("/edge/metrics")).body();
    }

    @Override
    public void close() {
        stack.seckill(env, COMMAND_TIMEOUT, "down", "edge");
    }

    /**
     * bin/seckill rebuilds stale jars on restart unless it sees the service or the writer running, and it looks for
     * them in the run directory it is given: with a directory of the edge's own it would rebuild the jars under the
     * stack's running JVMs (which then fail to load classes). Until bin/seckill skips the build for an edge-only
     * command, this directory holds copies of the stack's pid files while the edge starts; they are removed again
     * at once, so no later command here can act on the stack's processes.
     */
    private void borrowJavaPids() {
        try {
            Files.createDirectories(runDir.resolve("pids"));
            for (String c : JAVA_COMPONENTS) {
                Path own = stack.runDir().resolve("pids").resolve(c + ".pid");
                if (Files.exists(own)) {
                    Files.copy(own, runDir.resolve("pids").resolve(c + ".pid"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("failed to prepare the edge's run directory " + runDir, e);
        }
    }

    private void returnJavaPids() {
        try {
            for (String c : JAVA_COMPONENTS) {
                Files.deleteIfExists(runDir.resolve("pids").resolve(c + ".pid"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("failed to clean the edge's run directory " + runDir, e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("failed to find a free port", e);
        }
    }
}
