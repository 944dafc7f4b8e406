package dev.seckill.writer.it;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The Kafka side of the integration tests: send order events the way the service does (keyed by sale id, acks=all,
 * idempotent), wait until the writer group has committed past them, and read the dead-letter topic.
 */
public final class OrdersTopic implements AutoCloseable {

    /** The writer group whose committed offsets say "written". */
    public static final String GROUP = "seckill-writer";
    private static final TopicPartition DLT = new TopicPartition(OrderEvent.DEAD_LETTER_TOPIC, 0);

    private final KafkaProducer<byte[], byte[]> producer;
    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> dlt;

    public OrdersTopic() {
        String bootstrap = Stack.get().kafkaBootstrap();
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        dlt = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
        dlt.assign(List.of(DLT));
    }

    /** Sends events keyed by sale id (as the service does) and returns, per partition, the offset after the last. */
    public Map<TopicPartition, Long> send(List<OrderEvent> events) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (OrderEvent e : events) {
            records.add(new ProducerRecord<>(OrderEvent.TOPIC, bytes(e.key()), e.toJson()));
        }
        return sendAll(records);
    }

    /** Sends records as they are (poison, explicit partitions) and returns the offset after the last per partition. */
    public Map<TopicPartition, Long> sendAll(List<ProducerRecord<byte[], byte[]>> records) {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        records.forEach(r -> acks.add(producer.send(r)));
        producer.flush();
        Map<TopicPartition, Long> next = new HashMap<>();
        for (Future<RecordMetadata> ack : acks) {
            RecordMetadata m = ack(ack);
            next.merge(new TopicPartition(m.topic(), m.partition()), m.offset() + 1, Math::max);
        }
        return next;
    }

    /** Sends one record and returns where it landed. */
    public RecordMetadata sendOne(ProducerRecord<byte[], byte[]> record) {
        Future<RecordMetadata> ack = producer.send(record);
        producer.flush();
        return ack(ack);
    }

    /** Waits until the writer group has committed at least these offsets: every record before them is handled. */
    public void awaitCommitted(Map<TopicPartition, Long> next, Duration timeout) {
        Await.until(timeout, () -> {
            Map<TopicPartition, OffsetAndMetadata> committed = committed();
            return next.entrySet().stream().allMatch(e -> committed.get(e.getKey()) != null
                    && committed.get(e.getKey()).offset() >= e.getValue());
        }, "group " + GROUP + " to commit " + next + " (committed: " + safeCommitted() + ")");
    }

    /** The end of the dead-letter topic now: read from here to see only this test's letters. */
    public long deadLetterEnd() {
        return dlt.endOffsets(List.of(DLT)).get(DLT);
    }

    /**
     * The dead letters {@code mine} accepts from {@code from} to the topic's end as it is now, read to that end (or
     * fails after the timeout). Call it once the writer committed past the records: it sends a batch's dead letters
     * and waits for their acknowledgement before it commits, so every letter of those records is before this end, and
     * the list is all of them (none is a pass, not a guess after one poll).
     */
    public List<ConsumerRecord<byte[], byte[]>> deadLettersToEnd(long from,
                                                                 Predicate<ConsumerRecord<byte[], byte[]>> mine,
                                                                 Duration timeout) {
        long end = deadLetterEnd();
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        dlt.seek(DLT, from);
        Await.until(timeout, () -> {
            dlt.poll(Duration.ofMillis(200)).forEach(r -> {
                if (r.offset() < end && mine.test(r)) {
                    found.add(r);
                }
            });
            return dlt.position(DLT) >= end;
        }, "the dead letters from offset " + from + " read to " + end + " (" + found.size() + " of ours so far)");
        return found;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static Map<TopicPartition, Long> merge(Map<TopicPartition, Long> a, Map<TopicPartition, Long> b) {
        Map<TopicPartition, Long> m = new HashMap<>(a);
        b.forEach((tp, o) -> m.merge(tp, o, Math::max));
        return m;
    }

    private Map<TopicPartition, OffsetAndMetadata> committed() {
        try {
            return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("failed to read the group's offsets: " + e, e);
        }
    }

    private String safeCommitted() {
        try {
            return committed().toString();
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    private static RecordMetadata ack(Future<RecordMetadata> ack) {
        try {
            return ack.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("failed to send to Kafka: " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
        dlt.close(Duration.ofSeconds(5));
    }
}
