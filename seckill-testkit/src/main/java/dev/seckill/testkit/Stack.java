package dev.seckill.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The stack that {@code bin/seckill} started for the tests: its ports, secrets and run directory, read from the
 * same environment variables the script uses, with the script's own defaults ({@code bin/stack.env}, the
 * {@code LOCAL_} lines), and a way to drive the script itself (stop, start, restart a component).
 */
public final class Stack implements Topology {

    private static final Stack INSTANCE = new Stack();

    private final Path home;
    private final Path runDir;
    private final RunDir run;
    private final StackSettings settings;

    private Stack() {
        this.home = findHome();
        this.settings = StackSettings.single(home);
        this.runDir = settings.runDir();
        this.run = new RunDir(runDir);
    }

    public static Stack get() {
        return INSTANCE;
    }

    public Path home() {
        return home;
    }

    public Path runDir() {
        return runDir;
    }

    public int edgePort() {
        return port("EDGE_PORT");
    }

    public int servicePort() {
        return port("SERVICE_PORT");
    }

    public int writerPort() {
        return port("WRITER_PORT");
    }

    /** The service's internal listener: admin routes and observability (health details, metrics). */
    public int adminPort() {
        return port("ADMIN_PORT");
    }

    public int redisPort() {
        return port("REDIS_PORT");
    }

    public int dbPort() {
        return port("DB_PORT");
    }

    public int kafkaPort() {
        return port("KAFKA_PORT");
    }

    public String edgeUrl() {
        return "http://127.0.0.1:" + edgePort();
    }

    /** The single stack's clients go to its edge. */
    @Override
    public String publicUrl() {
        return edgeUrl();
    }

    public String serviceUrl() {
        return "http://127.0.0.1:" + servicePort();
    }

    /** Base URL of the service's internal listener ({@code /admin/...}, {@code /observe/...}). */
    @Override
    public String adminUrl() {
        return "http://127.0.0.1:" + adminPort();
    }

    public String writerUrl() {
        return "http://127.0.0.1:" + writerPort();
    }

    public String kafkaBootstrap() {
        return "127.0.0.1:" + kafkaPort();
    }

    public String redisAddress() {
        return "redis://127.0.0.1:" + redisPort();
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + dbPort() + "/seckill";
    }

    @Override
    public Connection db() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), dbUser(), dbPassword());
    }

    public String dbUser() {
        return "seckill";
    }

    @Override
    public RunDir secrets() {
        return run;
    }

    /**
     * A setting of this stack by its name in {@code bin/stack.env} ({@code KAFKA_PARTITIONS}): the environment's
     * {@code SECKILL_<name>}, else the file's {@code LOCAL_<name>}, as {@code bin/seckill} reads it.
     */
    public String setting(String name) {
        return settings.get(name);
    }

    /** The environment a process of this stack gets: the test's own plus the stack's variables. */
    public Map<String, String> environment() {
        return settings.environment(run);
    }

    /**
     * Runs {@code bin/seckill args...} against this stack and returns its output; fails the test if it exits
     * non-zero or takes longer than the timeout.
     */
    public String seckill(Duration timeout, String... args) {
        return seckill(Map.of(), timeout, args);
    }

    /**
     * Runs {@code bin/seckill args...} with this stack's environment plus {@code extraEnv} (which wins), e.g. a
     * second edge with its own run directory, port and knobs; fails like {@link #seckill(Duration, String...)}.
     */
    public String seckill(Map<String, String> extraEnv, Duration timeout, String... args) {
        return script(extraEnv, timeout, "bin/seckill", args);
    }

    /**
     * Runs a script of the repository ({@code script} relative to its root, e.g. {@code bin/lib/edge.sh}) with this
     * stack's environment plus {@code extraEnv}; fails like {@link #seckill(Duration, String...)}.
     */
    public String script(Map<String, String> extraEnv, Duration timeout, String script, String... args) {
        return Scripts.check(home, environment(), extraEnv, timeout, script, args);
    }

    /** How a script ended: its exit code and its output (stdout and stderr together). */
    public record Outcome(int exit, String output) {
    }

    /**
     * Runs any command (iptables, kill), bounded in time, and returns how it ended, never failing: exit -1 with what
     * happened when it did not end by itself (timed out and killed, failed to start, interrupted). For tools that
     * handle failures themselves.
     */
    public static Outcome command(Duration timeout, List<String> command) {
        return Scripts.attempt(command, Map.of(), Map.of(), timeout);
    }

    /**
     * Runs a script of the repository like {@link #script}, but returns its exit code instead of failing on a
     * non-zero one: for tests of the scripts' own error handling.
     */
    public Outcome run(Map<String, String> extraEnv, Duration timeout, String script, String... args) {
        return Scripts.run(home, environment(), extraEnv, timeout, script, args);
    }

    /** The pid bin/seckill recorded for a component, or -1 when it has none. */
    public long pid(String component) {
        return run.pid(component);
    }

    /** SIGKILLs a component (a crash, not a stop) and waits until it is gone. */
    public void kill9(String component) {
        run.kill9(component);
    }

    private int port(String name) {
        return Integer.parseInt(setting(name));
    }

    /** The repository's root: SECKILL_HOME (bin/seckill sets it), else the first directory up with bin/seckill. */
    public static Path findHome() {
        String h = System.getenv("SECKILL_HOME");
        if (h != null && !h.isEmpty()) {
            return Path.of(h);
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("bin/seckill"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the repository root (bin/seckill); set SECKILL_HOME");
        }
        return p;
    }
}
