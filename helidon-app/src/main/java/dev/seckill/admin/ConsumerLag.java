package dev.seckill.admin;

import dev.seckill.failure.DependencyUnavailable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The batch writer's lag: events on the orders topic that its consumer group has not committed yet. */
public final class ConsumerLag {

    private final Admin admin;
    private final String topic;
    private final String group;

    public ConsumerLag(Admin admin, String topic, String group) {
        this.admin = admin;
        this.topic = topic;
        this.group = group;
    }

    public long total() {
        try {
            int partitions = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(3, TimeUnit.SECONDS)
                    .get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get(3, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(3, TimeUnit.SECONDS);
            long lag = 0;
            for (var e : ends.entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                lag += e.getValue().offset() - (c == null ? 0 : c.offset());
            }
            return lag;
        } catch (Exception e) {
            throw new DependencyUnavailable("failed to read the writer's lag from Kafka: " + e.getMessage(), e);
        }
    }
}
