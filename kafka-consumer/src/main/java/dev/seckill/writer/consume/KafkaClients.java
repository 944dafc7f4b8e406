package dev.seckill.writer.consume;

import dev.seckill.writer.config.WriterSettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.util.HashMap;
import java.util.Map;

/** The writer's consumer and dead-letter producer properties, each with the reason it is set. */
public final class KafkaClients {

    static final int FETCH_MIN_BYTES = 128 * 1024;
    static final int FETCH_MAX_WAIT_MS = 100;

    private KafkaClients() {
    }

    public static Map<String, Object> consumerProperties(WriterSettings.Kafka k, String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, k.bootstrap());
        // Every writer instance joins one group, so Kafka gives each partition (and so each sale) to one of them.
        p.put(ConsumerConfig.GROUP_ID_CONFIG, k.groupId());
        // Names this instance in broker logs and group listings.
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // Offsets are committed by hand and only after the DB transaction committed; redelivery is harmless.
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // A group without a committed offset starts at the oldest order still in the topic, never skipping any.
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Raw bytes: the writer parses each record itself, so a bad one becomes a dead letter, not a poll() failure.
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        // One poll is one batch, one transaction and one multi-row insert: this bounds its size.
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, k.maxPollRecords());
        // A fetch waits for a large batch of orders (128 KiB, some 700 events) or 100 ms, whichever comes first,
        // rather than returning each produce request's few records: at a sale's steady trickle each poll is then one
        // transaction of some hundred orders, and Kafka, the writer and MariaDB pay their per-batch costs over them
        // (the bench's large sale through the edge, two alternating pairs against 16 KiB / 20 ms: writer + Kafka +
        // MariaDB 138-140 µs of CPU per order against 164-275, units sold/s 1.09-1.35 x;
        // bench/results/2026-12-06-writer-fetch.md). A lone order's row waits 100 ms at most; its buyer heard 202
        // once Kafka had it, before that.
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, FETCH_MIN_BYTES);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_MAX_WAIT_MS);
        // A crashed instance's partitions move to a live one after this (Kafka's default 45 s is a long pause).
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) k.sessionTimeout().toMillis());
        // Heartbeats well inside the session timeout, as Kafka advises (a third of it).
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) k.sessionTimeout().toMillis() / 3);
        // One batch (with its in-transaction retries) must end within this; the backoff between retries keeps polling.
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000);
        // In a rebalance only the partitions that change owner stop; the others keep being written.
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        // Never read records of aborted producer transactions, should the service's producer become transactional.
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return p;
    }

    public static Map<String, Object> producerProperties(WriterSettings.Kafka k, String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, k.bootstrap());
        // Names this instance in broker logs.
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        // A dead letter is the only copy of a refused record: every in-sync replica has it before we commit past it.
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // A retry after a lost ack never writes a letter twice, and letters keep their order.
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // The original key and value go out byte for byte.
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        // Letters are rare and waited for at once: nothing to gain by lingering for a fuller batch.
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // A broken DLT becomes a failed, retried batch within seconds instead of a loop stuck for minutes.
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        // send() gives up after 5 s when the topic's metadata cannot be had (broker down, topic missing).
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        return p;
    }

    /** The producer's delivery timeout: waiting for letters any longer than this is pointless. */
    public static final int DELIVERY_TIMEOUT_MS = 15_000;
}
