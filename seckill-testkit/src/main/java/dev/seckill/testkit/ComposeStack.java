package dev.seckill.testkit;

import java.io.IOException;
import java.io.Reader;
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
 * compose.yaml's stack as a user runs it, driven through the local {@code docker compose} (compose v2): its public
 * entry is the published edge (or the cluster profile's load balancer) on 127.0.0.1, its operators' entry the
 * published admin listener. Tests read MySQL and Redis at the containers' own addresses on the compose network,
 * which the host routes to; nothing else is published.
 * <p>
 * The project is named {@value #PROJECT}, apart from a user's own; the secrets are the test command's (its
 * environment), so {@link #secrets()} reads them as for the native stacks. Testcontainers' ComposeContainer is not
 * used: its reaper and its ambassador images cannot be pulled where no registry is reachable, and these tests need
 * what a user does between up and down ({@code kill}, {@code restart}, {@code down} keeping the volumes), beyond
 * its one start and one stop.
 */
public final class ComposeStack implements Topology {

    public static final String PROJECT = "seckill-compose-test";
    /** A whole {@code up --wait} from nothing on a loaded two-core machine, and any single compose command. */
    public static final Duration UP = Duration.ofMinutes(8);

    private final Path home;
    private final boolean cluster;
    private final Properties settings;
    private final Map<String, String> env;

    /**
     * @param cluster the cluster profile (its load balancer on the public port) instead of the single stack
     * @param env     variables compose sees besides the secrets (an edge knob, the proxies the entry believes)
     */
    public ComposeStack(boolean cluster, Map<String, String> env) {
        this.home = Stack.findHome();
        this.cluster = cluster;
        this.settings = read(home.resolve(StackSettings.FILE));
        this.env = Map.copyOf(env);
    }

    /** How a compose command ended: its exit code and its output (stdout and stderr together). */
    public record Outcome(int exit, String output) {
    }

    /** Runs {@code docker compose <args>} for this project; fails the test when it fails. */
    public String compose(String... args) {
        Outcome o = run(args);
        if (o.exit() != 0) {
            throw new AssertionError("docker compose " + String.join(" ", args) + " failed: " + o.output());
        }
        return o.output();
    }

    /** Runs {@code docker compose <args>} for this project and says how it ended. */
    public Outcome run(String... args) {
        List<String> cmd = new ArrayList<>(List.of("docker", "compose", "-p", PROJECT, "-f",
                home.resolve("compose.yaml").toString()));
        if (cluster) {
            cmd.addAll(List.of("--profile", "cluster"));
        }
        cmd.addAll(List.of(args));
        return exec(cmd, env);
    }

    /** {@code up -d --build --wait} of the topology (the cluster's: its load balancer and all it needs). */
    public void up() {
        if (cluster) {
            compose("up", "-d", "--build", "--wait", "lb");
        } else {
            compose("up", "-d", "--build", "--wait");
        }
    }

    /** The container of a compose service (its id). */
    public String container(String service) {
        String id = compose("ps", "-q", service).strip();
        if (id.isEmpty()) {
            throw new AssertionError("no container runs " + service);
        }
        return id;
    }

    /** Whether a compose service has a running container. */
    public boolean running(String service) {
        return !compose("ps", "-q", service).isBlank();
    }

    /** A container's address on the compose network (a new container has a new one). */
    public String address(String service) {
        Outcome o = exec(List.of("docker", "inspect", "-f",
                "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", container(service)), Map.of());
        if (o.exit() != 0 || o.output().isBlank()) {
            throw new AssertionError(service + " has no address: " + o.output());
        }
        return o.output().strip();
    }

    /** {@code docker kill} of a service's container: SIGKILL, no stop, as a crash. */
    public void kill(String service) {
        Outcome o = exec(List.of("docker", "kill", container(service)), Map.of());
        if (o.exit() != 0) {
            throw new AssertionError("docker kill " + service + " failed: " + o.output());
        }
    }

    /** The names of what Docker holds of this project: containers, volumes and networks, each "kind name". */
    public List<String> leftovers() {
        List<String> out = new ArrayList<>();
        String label = "label=com.docker.compose.project=" + PROJECT;
        for (String kind : List.of("container", "volume", "network")) {
            List<String> cmd = new ArrayList<>(List.of("docker", kind, "ls", "-q", "--filter", label));
            if (kind.equals("container")) {
                cmd.add("--all");
            }
            Outcome o = exec(cmd, Map.of());
            if (o.exit() != 0) {
                throw new AssertionError("docker " + kind + " ls failed: " + o.output());
            }
            o.output().lines().filter(l -> !l.isBlank()).forEach(l -> out.add(kind + " " + l.strip()));
        }
        return out;
    }

    /** The node the database container runs; the cluster's is the service cluster-db. */
    public String dbService() {
        return cluster ? "cluster-db" : "db";
    }

    @Override
    public String publicUrl() {
        return "http://127.0.0.1:" + setting(cluster ? "CLUSTER_LB_PORT" : "LOCAL_EDGE_PORT");
    }

    /** The single stack's admin listener; the cluster's first service's, published on 8183. */
    @Override
    public String adminUrl() {
        return "http://127.0.0.1:" + (cluster ? "8183" : setting("LOCAL_ADMIN_PORT"));
    }

    @Override
    public RunDir secrets() {
        // Every secret comes from the environment (bin/seckill test exports them); no directory is read.
        return new RunDir(home.resolve(".run/compose-has-no-run-dir"));
    }

    @Override
    public Connection db() throws SQLException {
        String port = setting(cluster ? "CLUSTER_DB_PORT" : "LOCAL_DB_PORT");
        return DriverManager.getConnection("jdbc:mariadb://" + address(dbService()) + ":" + port + "/seckill",
                "seckill", dbPassword());
    }

    /** The single stack's Redis, {@code redis://address:port}. */
    public String redisAddress() {
        return "redis://" + address("redis") + ":" + setting("LOCAL_REDIS_PORT");
    }

    /** The cluster's Redis nodes at their containers' addresses, asked with redis-cli. */
    public RedisCluster redis() {
        int first = Integer.parseInt(setting("CLUSTER_REDIS_PORT"));
        Map<Integer, String> names = new LinkedHashMap<>();
        Map<String, String> hosts = new LinkedHashMap<>();
        for (int n = 1; n <= 6; n++) {
            names.put(first + n - 1, "redis-" + n);
            if (running("redis-" + n)) {
                hosts.put("redis-" + n, address("redis-" + n));
            }
        }
        return new RedisCluster(names, hosts::get, redisPassword());
    }

    /** {@code host:port} of a cluster Redis node's container. */
    public String redisNode(String node) {
        return address(node) + ":" + (Integer.parseInt(setting("CLUSTER_REDIS_PORT")) + Integer.parseInt(
                node.substring(node.lastIndexOf('-') + 1)) - 1);
    }

    private String setting(String key) {
        String v = settings.getProperty(key);
        if (v == null) {
            throw new IllegalStateException(key + " is not in " + StackSettings.FILE);
        }
        return v;
    }

    private static Outcome exec(List<String> cmd, Map<String, String> env) {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        try {
            Path out = Files.createTempFile("seckill-compose", ".log");
            Process p = pb.redirectOutput(out.toFile()).start();
            if (!p.waitFor(UP.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", cmd) + " took longer than " + UP);
            }
            String text = Files.readString(out);
            Files.deleteIfExists(out);
            return new Outcome(p.exitValue(), text);
        } catch (IOException e) {
            throw new AssertionError("failed to run " + cmd + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return p;
    }
}
