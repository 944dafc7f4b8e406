package dev.seckill.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The stack that {@code bin/seckill} started for the tests: its ports, secrets and run directory, read from the
 * same environment variables the script uses, with the script's own defaults ({@code bin/stack.env}, the
 * {@code LOCAL_} lines), and a way to drive the script itself (stop, start, restart a component).
 */
public final class Stack {

    private static final Stack INSTANCE = new Stack();

    private final Path home;
    private final Path runDir;
    private final Properties defaults;

    private Stack() {
        this.home = findHome();
        this.defaults = StackSettings.read(home.resolve(StackSettings.FILE));
        String run = env("SECKILL_RUN_DIR", home.resolve(".run/local").toString());
        this.runDir = Path.of(run).isAbsolute() ? Path.of(run) : home.resolve(run);
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

    public String serviceUrl() {
        return "http://127.0.0.1:" + servicePort();
    }

    /** Base URL of the service's internal listener ({@code /admin/...}, {@code /observe/...}). */
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

    public Connection db() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), dbUser(), dbPassword());
    }

    public String dbUser() {
        return "seckill";
    }

    /** The database password: SECKILL_DB_PASSWORD, else the one bin/seckill generated into the run directory. */
    public String dbPassword() {
        return optionalSecret("SECKILL_DB_PASSWORD", "db-password", "seckill");
    }

    /** The Redis password: SECKILL_REDIS_PASSWORD, else the generated one; empty when Redis has none. */
    public String redisPassword() {
        return optionalSecret("SECKILL_REDIS_PASSWORD", "redis-password", "");
    }

    public String adminToken() {
        return secret("SECKILL_ADMIN_TOKEN", "admin-token");
    }

    public String tokenSecret() {
        return secret("SECKILL_TOKEN_SECRET", "token-secret");
    }

    /**
     * A setting of this stack by its name in {@code bin/stack.env} ({@code KAFKA_PARTITIONS}): the environment's
     * {@code SECKILL_<name>}, else the file's {@code LOCAL_<name>}, as {@code bin/seckill} reads it.
     */
    public String setting(String name) {
        String v = System.getenv("SECKILL_" + name);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        String d = defaults.getProperty("LOCAL_" + name);
        if (d == null) {
            throw new IllegalArgumentException("no setting LOCAL_" + name + " in " + home.resolve(StackSettings.FILE));
        }
        return d;
    }

    /** The environment a process of this stack gets: the test's own plus the stack's variables. */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SECKILL_RUN_DIR", runDir.toString());
        for (String name : StackSettings.names(defaults, "LOCAL_")) {
            if (name.endsWith("_PORT")) {
                env.put("SECKILL_" + name, setting(name));
            }
        }
        env.put("SECKILL_ADMIN_TOKEN", adminToken());
        env.put("SECKILL_TOKEN_SECRET", tokenSecret());
        return env;
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
        Outcome o = run(extraEnv, timeout, script, args);
        if (o.exit() != 0) {
            throw new AssertionError(script + " " + String.join(" ", args) + " failed: " + o.output());
        }
        return o.output();
    }

    /** How a script ended: its exit code and its output (stdout and stderr together). */
    public record Outcome(int exit, String output) {
    }

    /**
     * Runs a script of the repository like {@link #script}, but returns its exit code instead of failing on a
     * non-zero one: for tests of the scripts' own error handling.
     */
    public Outcome run(Map<String, String> extraEnv, Duration timeout, String script, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve(script).toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(environment());
        // A null value removes the variable (e.g. JAVA_HOME, to test the JDK search).
        extraEnv.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            Path out = Files.createTempFile("seckill-cmd", ".log");
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(script + " " + String.join(" ", args) + " took longer than " + timeout);
            }
            String text = Files.readString(out);
            Files.deleteIfExists(out);
            return new Outcome(p.exitValue(), text);
        } catch (IOException e) {
            throw new AssertionError("failed to run " + script + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The pid bin/seckill recorded for a component, or -1 when it has none. */
    public long pid(String component) {
        try {
            Path f = runDir.resolve("pids").resolve(component + ".pid");
            return Files.exists(f) ? Long.parseLong(Files.readString(f).trim()) : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** SIGKILLs a component (a crash, not a stop) and waits until the process is gone. */
    public void kill9(String component) {
        long pid = pid(component);
        if (pid <= 0) {
            throw new AssertionError(component + " has no pid file in " + runDir);
        }
        ProcessHandle.of(pid).ifPresent(ph -> {
            ph.destroyForcibly();
            Await.until(Duration.ofSeconds(20), () -> !ph.isAlive(), component + " to die");
        });
    }

    private String secret(String var, String file) {
        String v = System.getenv(var);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        try {
            return Files.readString(runDir.resolve(file), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException(var + " is not set and " + runDir.resolve(file)
                    + " is unreadable: start the stack with bin/seckill up or run bin/seckill test", e);
        }
    }

    private String optionalSecret(String var, String file, String def) {
        String v = System.getenv(var);
        if (v != null && !v.isEmpty()) {
            return v;
        }
        Path f = runDir.resolve(file);
        try {
            return Files.exists(f) ? Files.readString(f, StandardCharsets.UTF_8).trim() : def;
        } catch (IOException e) {
            throw new IllegalStateException(f + " is unreadable: " + e.getMessage(), e);
        }
    }

    private int port(String name) {
        return Integer.parseInt(setting(name));
    }

    private static String env(String var, String def) {
        String v = System.getenv(var);
        return v == null || v.isEmpty() ? def : v;
    }

    private static Path findHome() {
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
