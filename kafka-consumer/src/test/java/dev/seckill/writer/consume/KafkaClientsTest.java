package dev.seckill.writer.consume;

import dev.seckill.writer.config.WriterSettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KafkaClientsTest {

    private final WriterSettings.Kafka kafka = new WriterSettings.Kafka("127.0.0.1:9092", "seckill.orders",
            "seckill.orders.DLT", "seckill-writer", 800, Duration.ofMillis(500), Duration.ofSeconds(9));

    @Test
    void consumerCommitsByHandAndStartsAtTheOldestOrder() {
        Map<String, Object> p = KafkaClients.consumerProperties(kafka, "w-1");
        assertEquals(false, p.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG));
        assertEquals("earliest", p.get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG));
        assertEquals("seckill-writer", p.get(ConsumerConfig.GROUP_ID_CONFIG));
        assertEquals(800, p.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG));
        assertEquals(9000, p.get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG));
        assertEquals(3000, p.get(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG));
    }

    @Test
    void consumerFetchesABatchsWorthOrWaitsAtMostTwentyMilliseconds() {
        Map<String, Object> p = KafkaClients.consumerProperties(kafka, "w-1");
        assertEquals(128 * 1024, p.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG));
        assertEquals(100, p.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG));
    }

    @Test
    void deadLetterProducerWaitsForAllReplicasAndIsIdempotent() {
        Map<String, Object> p = KafkaClients.producerProperties(kafka, "w-1-dlt");
        assertEquals("all", p.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(true, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
    }
}
