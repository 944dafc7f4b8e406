package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Stack;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads every order event of one sale from the topic, from the beginning to the current end (no group). */
final class TopicReader {

    private TopicReader() {
    }

    static List<OrderEvent> eventsOf(long saleId) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Stack.get().kafkaBootstrap(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        List<OrderEvent> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : c.partitionsFor(OrderEvent.TOPIC)) {
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("failed to read the topic to its end in 60 s");
                }
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (Long.toString(saleId).equals(r.key())) {
                        out.add(OrderEvent.fromJson(r.value()));
                    }
                }
            }
        }
        return out;
    }
}
