package dev.seckill.chaos.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The timeouts that watch each kind of node, read from the checkout's own configuration (so a pause can be drawn
 * shorter or longer than the one that decides): the Redis Cluster's node timeout (bin/lib/cluster.sh), the KRaft
 * brokers' session (bin/lib/components.sh), the writers' consumer-group session and retry backoff
 * (kafka-consumer's application.yaml), the service's Redis timeout and Kafka delivery timeout (helidon-app's), the
 * edges' and the load balancer's read timeouts (bin/lib/edge.sh, bin/lib/lb.sh), all in milliseconds.
 */
public record Timeouts(long redisNodeTimeout, long brokerSession, long writerSession, long writerBackoffMax,
                       long serviceRedis, long serviceKafkaDelivery, long edgeRead, long lbRead, long client) {

    /** The client's patience beyond the deadline: a request unanswered after both is recorded with status 0. */
    public static final long CLIENT_PATIENCE_PAST_DEADLINE_MS = 2000;

    public static Timeouts read(Path home) {
        String cluster = text(home.resolve("bin/lib/cluster.sh"));
        String components = text(home.resolve("bin/lib/components.sh"));
        String writer = text(home.resolve("kafka-consumer/src/main/resources/application.yaml"));
        String service = text(home.resolve("helidon-app/src/main/resources/application.yaml"));
        String edge = text(home.resolve("bin/lib/edge.sh"));
        String lb = text(home.resolve("bin/lib/lb.sh"));
        return new Timeouts(
                number(cluster, "(?m)^REDIS_NODE_TIMEOUT=(\\d+)"),
                number(components, "broker\\.session\\.timeout\\.ms=(\\d+)"),
                number(section(writer, "kafka"), "(?m)^\\s+session-timeout-ms:\\s*(\\d+)"),
                number(section(writer, "writer"), "(?m)^\\s+max-ms:\\s*(\\d+)"),
                number(section(service, "redis"), "(?m)^\\s+timeout-ms:\\s*(\\d+)"),
                number(section(service, "kafka"), "(?m)^\\s+delivery-timeout-ms:\\s*(\\d+)"),
                edgeRead(edge),
                lbRead(edge, lb),
                deadline(edge) + CLIENT_PATIENCE_PAST_DEADLINE_MS);
    }

    /** The deadline every answer is due within at the entry point (SECKILL_DEADLINE_MS). */
    public long deadline() {
        return client - CLIENT_PATIENCE_PAST_DEADLINE_MS;
    }

    /** The timeout that decides what happens when {@code node} stops answering. */
    public long watching(String node) {
        return switch (node.replaceFirst("-[0-9]+$", "")) {
            case "redis" -> redisNodeTimeout;
            case "kafka" -> brokerSession;
            case "writer" -> writerSession;
            case "service" -> edgeRead;
            case "edge" -> lbRead;
            case "db" -> writerBackoffMax;
            default -> client;
        };
    }

    /** What {@link #watching} is, in words, for the report. */
    public static String watcher(String node) {
        return switch (node.replaceFirst("-[0-9]+$", "")) {
            case "redis" -> "Redis cluster-node-timeout";
            case "kafka" -> "KRaft broker.session.timeout.ms";
            case "writer" -> "writers' session.timeout.ms";
            case "service" -> "edges' read timeout";
            case "edge" -> "load balancer's read timeout";
            case "db" -> "writers' retry backoff (max)";
            default -> "client timeout";
        };
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read " + file + " for its timeouts", e);
        }
    }

    /** The lines of a top-level YAML key's block. */
    private static String section(String yaml, String key) {
        Matcher m = Pattern.compile("(?ms)^" + key + ":\\s*$(.*?)(?=^\\S)").matcher(yaml + "\nEND:\n");
        if (!m.find()) {
            throw new IllegalStateException("no " + key + ": section");
        }
        return m.group(1);
    }

    private static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no timeout matching " + regex);
        }
        return Long.parseLong(m.group(1));
    }

    /** SECKILL_DEADLINE_MS's default, as bin/lib/edge.sh's deadline_knob states it. */
    private static long deadline(String edge) {
        return number(edge, "edge_knob SECKILL_DEADLINE_MS (\\d+) ");
    }

    /** The edges' read timeout: the deadline less what edge.sh's default takes off it. */
    private static long edgeRead(String edge) {
        return deadline(edge) - number(edge,
                "edge_knob SECKILL_EDGE_READ_TIMEOUT \"\\$\\(\\(SECKILL_DEADLINE_MS - (\\d+)\\)\\)ms\"");
    }

    /** The lbs' read timeout: the deadline less what lb.sh's default takes off it. */
    private static long lbRead(String edge, String lb) {
        return deadline(edge) - number(lb,
                "edge_knob SECKILL_LB_READ_TIMEOUT \"\\$\\(\\(SECKILL_DEADLINE_MS - (\\d+)\\)\\)ms\"");
    }
}
