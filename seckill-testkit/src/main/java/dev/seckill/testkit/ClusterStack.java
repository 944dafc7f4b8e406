package dev.seckill.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The cluster that {@code bin/seckill up --cluster} started (the test phase starts the test cluster): its nodes,
 * their ports, secrets and run directory, read as the script reads them ({@code bin/stack.env}'s {@code CLUSTER_}
 * lines, which {@code SECKILL_CLUSTER_<NAME>} overrides; {@code SECKILL_CLUSTER_RUN_DIR}), a way to crash a node and
 * bring it back, and its Redis Cluster as the nodes themselves see it ({@link #redis()}).
 *
 * <p>Node n of a kind ({@code redis-3}: kind redis, n = 3) listens on the kind's port + n - 1, as in the script.
 */
public final class ClusterStack implements Topology {

    private static final ClusterStack INSTANCE = new ClusterStack();
    /** How long bringing a node up or down may take on a loaded machine. */
    public static final Duration NODE_OP = Duration.ofSeconds(240);

    private final Path home;
    private final StackSettings settings;
    private final RunDir run;
    private final List<String> nodes;

    private ClusterStack() {
        this.home = Stack.findHome();
        this.settings = StackSettings.cluster(home);
        this.run = new RunDir(settings.runDir());
        this.nodes = List.of(setting("TOPOLOGY").split(","));
    }

    public static ClusterStack get() {
        return INSTANCE;
    }

    public Path runDir() {
        return run.path();
    }

    /** A setting by its name in bin/stack.env: SECKILL_CLUSTER_{name}, else CLUSTER_{name}. */
    public String setting(String name) {
        return settings.get(name);
    }

    /** Every node, in start order: redis-1 ... redis-6, db, kafka-1 ... kafka-3, service-1, ..., lb. */
    public List<String> nodes() {
        return nodes;
    }

    /** The nodes of one kind (redis, kafka, service, writer, edge). */
    public List<String> nodes(String kind) {
        return nodes.stream().filter(n -> kindOf(n).equals(kind)).toList();
    }

    /** redis-3 is of kind redis; db and lb are their own kind. */
    public static String kindOf(String node) {
        return node.replaceFirst("-[0-9]+$", "");
    }

    private static int indexOf(String node) {
        return node.matches(".*-[0-9]+") ? Integer.parseInt(node.substring(node.lastIndexOf('-') + 1)) : 1;
    }

    /** The node's main port. */
    public int port(String node) {
        return port(node, kindOf(node).toUpperCase() + "_PORT");
    }

    /** The node's port of one setting (a service's ADMIN_PORT, a broker's KAFKA_CONTROLLER_PORT). */
    public int port(String node, String setting) {
        if (!nodes.contains(node)) {
            throw new IllegalArgumentException("no node " + node + " in " + nodes);
        }
        return Integer.parseInt(setting(setting)) + indexOf(node) - 1;
    }

    /** Every port a node listens on: its main one, a Redis node's cluster bus, a broker's controller, a service's admin. */
    public List<Integer> listeningPorts(String node) {
        List<Integer> ports = new ArrayList<>(List.of(port(node)));
        switch (kindOf(node)) {
            case "redis" -> ports.add(port(node, "REDIS_BUS_PORT"));
            case "kafka" -> ports.add(port(node, "KAFKA_CONTROLLER_PORT"));
            case "service" -> ports.add(port(node, "ADMIN_PORT"));
            default -> { }
        }
        return ports;
    }

    /** The load balancer, where clients go. */
    @Override
    public String publicUrl() {
        return "http://127.0.0.1:" + port("lb");
    }

    /** The first service's internal listener. */
    @Override
    public String adminUrl() {
        return adminUrl(nodes("service").getFirst());
    }

    public String adminUrl(String service) {
        return "http://127.0.0.1:" + port(service, "ADMIN_PORT");
    }

    /** A node's own HTTP address (a service's public listener, an edge, a writer). */
    public String url(String node) {
        return "http://127.0.0.1:" + port(node);
    }

    /** The Redis seed nodes as the services get them: SECKILL_REDIS_NODES, else every Redis node of the cluster. */
    public String redisNodes() {
        String v = System.getenv("SECKILL_REDIS_NODES");
        if (v != null && !v.isEmpty()) {
            return v;
        }
        return nodes("redis").stream().map(n -> "redis://127.0.0.1:" + port(n)).collect(Collectors.joining(","));
    }

    /** The Kafka bootstrap list. */
    public String kafkaBootstrap() {
        return nodes("kafka").stream().map(n -> "127.0.0.1:" + port(n)).collect(Collectors.joining(","));
    }

    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port("db") + "/seckill";
    }

    @Override
    public Connection db() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), "seckill", dbPassword());
    }

    @Override
    public RunDir secrets() {
        return run;
    }

    /** The Redis Cluster as its nodes see it. */
    public RedisCluster redis() {
        Map<Integer, String> byPort = new LinkedHashMap<>();
        nodes("redis").forEach(n -> byPort.put(port(n), n));
        return new RedisCluster(byPort, redisPassword());
    }

    /** The environment a command on this cluster gets: its run directory, ports and secrets. */
    public Map<String, String> environment() {
        return settings.environment(run);
    }

    /** Runs {@code bin/seckill args... --cluster}; fails the test on a non-zero exit or a timeout. */
    public String seckill(Duration timeout, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--cluster");
        return Scripts.check(home, environment(), Map.of(), timeout, "bin/seckill", all.toArray(String[]::new));
    }

    /**
     * Runs {@code prefix} + {@code bin/seckill args... --cluster} (a prefix such as a shell that first steps into a
     * cgroup; empty for none) and returns how it ended, never failing: a non-zero exit is an outcome, and one that
     * did not end within {@code timeout} (it is then killed) has exit -1. For tools that handle failures themselves.
     */
    public Stack.Outcome attempt(Duration timeout, List<String> prefix, String... args) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(home.resolve("bin/seckill").toString());
        cmd.addAll(List.of(args));
        cmd.add("--cluster");
        return Scripts.attempt(cmd, environment(), Map.of(), timeout);
    }

    /** As {@link #up}, returning how {@code bin/seckill up --cluster node...} ended instead of failing. */
    public Stack.Outcome attemptUp(String... node) {
        List<String> args = new ArrayList<>(List.of("up"));
        args.addAll(List.of(node));
        return attempt(NODE_OP, List.of(), args.toArray(String[]::new));
    }

    /** Starts the named nodes again ({@code bin/seckill up --cluster node...}) and waits until they are healthy. */
    public void up(String... node) {
        List<String> args = new ArrayList<>(List.of("up"));
        args.addAll(List.of(node));
        seckill(NODE_OP, args.toArray(String[]::new));
    }

    /** {@code bin/seckill status --cluster}: one line per node with its pid, ports and health. */
    public String status() {
        return seckill(Duration.ofSeconds(60), "status");
    }

    public long pid(String node) {
        return run.pid(node);
    }

    /** SIGKILLs a node with every process it started (a crash, not a stop) and waits until it is gone. */
    public void kill9(String node) {
        run.kill9(node);
    }

    /** As {@link #kill9}, saying what went wrong instead of failing: empty when the node's processes are gone. */
    public Optional<String> crash(String node) {
        return run.crash(node);
    }
}
