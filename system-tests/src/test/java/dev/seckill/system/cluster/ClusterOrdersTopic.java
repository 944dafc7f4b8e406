package dev.seckill.system.cluster;

import dev.seckill.testkit.ClusterStack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The orders topic and the writers' group on the cluster's brokers, as Kafka's admin API reports them. */
final class ClusterOrdersTopic implements AutoCloseable {

    static final String TOPIC = "seckill.orders";
    static final String GROUP = "seckill-writer";

    private final Admin admin;

    ClusterOrdersTopic(ClusterStack cluster) {
        // Generous: the first call also finds the brokers, on a machine the stampede keeps busy.
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /**
     * The partition of a sale's orders: the service keys each event by the sale id (a string), and the producer's
     * default partitioner puts a keyed record on murmur2(key) mod partitions.
     */
    int partitionOf(long saleId) {
        byte[] key = Long.toString(saleId).getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(key)) % partitions().size();
    }

    List<TopicPartitionInfo> partitions() {
        return partitions(TOPIC);
    }

    /** The partitions of another of the stack's topics (the order events). */
    List<TopicPartitionInfo> partitions(String topic) {
        return answer(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions();
    }

    /** A topic's {@code min.insync.replicas}, as the brokers apply it. */
    int minInSync(String topic) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return Integer.parseInt(answer(admin.describeConfigs(List.of(r)).all()).get(r)
                .get("min.insync.replicas").value());
    }

    /** The node id (kafka-N is node N) leading a partition, or -1 while it has none. */
    int leaderOf(int partition) {
        Node leader = partitions().get(partition).leader();
        return leader == null || leader.isEmpty() ? -1 : leader.id();
    }

    /** How many replicas of a partition are in sync. */
    int inSync(int partition) {
        return partitions().get(partition).isr().size();
    }

    /** The writers' group members with how many partitions each holds. */
    List<Integer> assignment() {
        ConsumerGroupDescription g = answer(admin.describeConsumerGroups(List.of(GROUP)).all()).get(GROUP);
        return g.members().stream().map(MemberDescription::assignment).map(a -> a.topicPartitions().size()).toList();
    }

    /** The admin call's answer; a broker that does not answer in time is an unchecked failure (pollers retry it). */
    private static <T> T answer(KafkaFuture<T> f) {
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("failed to ask Kafka: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
