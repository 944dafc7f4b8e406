package dev.seckill.purchase;

import dev.seckill.config.TestConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The producer's settings as the service builds them from the {@code kafka} section over application.yaml. */
class OrderPublisherTest {

    private static Map<String, Object> properties(Map<String, String> environment) {
        return OrderPublisher.properties(KafkaSettings.from(TestConfig.environment(environment).get("kafka")));
    }

    @Test
    void a202WaitsForEveryInSyncReplicaAndRetriesWriteNoDuplicate() {
        Map<String, Object> p = properties(Map.of("KAFKA_BOOTSTRAP", "127.0.0.1:9092"));
        assertEquals("127.0.0.1:9092", p.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        assertEquals("all", p.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(true, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals(5000, p.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
    }

    @Test
    void theLingerIsApplicationYamlsFiveMsUnlessTheEnvironmentSaysOtherwise() {
        assertEquals(5, properties(Map.of()).get(ProducerConfig.LINGER_MS_CONFIG));
        assertEquals(0, properties(Map.of("KAFKA_LINGER_dash_MS", "0")).get(ProducerConfig.LINGER_MS_CONFIG));
    }
}
