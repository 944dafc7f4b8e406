package dev.seckill.chaos.fault;

import dev.seckill.testkit.ClusterStack;

import java.util.function.UnaryOperator;

/**
 * The timeouts that decide what happens when a node of each kind goes silent, so a pause can be drawn shorter or
 * longer than the one that decides. All are settings of the cluster in bin/stack.env, the file the scripts that start
 * the nodes read them from ({@code CLUSTER_<NAME>}, moved by {@code SECKILL_CLUSTER_<NAME>}), in milliseconds: the
 * Redis Cluster's node timeout, the KRaft brokers' session, the writers' consumer-group session and longest retry
 * backoff, and the deadline every answer comes within, which the lbs' and the edges' read timeouts are cut from.
 */
public record Timeouts(long redisNodeTimeout, long brokerSession, long writerSession, long writerBackoffMax,
                       long deadline) {

    /** The client's patience beyond the deadline: a request unanswered after both is recorded with status 0. */
    public static final long CLIENT_PATIENCE_PAST_DEADLINE_MS = 2000;

    /** From the cluster's settings ({@code ClusterStack::setting}: a name in bin/stack.env to its value). */
    public static Timeouts read(UnaryOperator<String> setting) {
        return new Timeouts(millis(setting, "REDIS_NODE_TIMEOUT_MS"), millis(setting, "KAFKA_BROKER_SESSION_MS"),
                millis(setting, "WRITER_SESSION_TIMEOUT_MS"), millis(setting, "WRITER_BACKOFF_MAX_MS"),
                millis(setting, "DEADLINE_MS"));
    }

    /** How long the workload's client waits for an answer. */
    public long client() {
        return deadline + CLIENT_PATIENCE_PAST_DEADLINE_MS;
    }

    /**
     * The timeout that decides what happens when {@code node} stops answering. A silent service or edge is answered
     * for by the layer in front at its read timeout, a fixed part of a second inside the deadline.
     */
    public long watching(String node) {
        return switch (ClusterStack.kindOf(node)) {
            case "redis" -> redisNodeTimeout;
            case "kafka" -> brokerSession;
            case "writer" -> writerSession;
            case "service", "edge" -> deadline;
            case "db" -> writerBackoffMax;
            default -> client();
        };
    }

    private static long millis(UnaryOperator<String> setting, String name) {
        String v = setting.apply(name);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the setting " + name + " is not milliseconds: " + v, e);
        }
    }
}
