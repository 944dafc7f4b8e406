package dev.seckill.purchase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The producer's settings as the service builds them from the {@code kafka} section. */
class OrderPublisherTest {

    private static Map<String, Object> properties(Map<String, String> kafka) {
        return OrderPublisher.properties(Config.just(ConfigSources.create(kafka)), 5000);
    }

    @Test
    void a202WaitsForEveryInSyncReplicaAndRetriesWriteNoDuplicate() {
        Map<String, Object> p = properties(Map.of("bootstrap", "127.0.0.1:9092"));
        assertEquals("all", p.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(true, p.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals(5000, p.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
    }

    @Test
    void theLingerIsASettingWithADefault() {
        assertEquals(OrderPublisher.DEFAULT_LINGER_MS, properties(Map.of("bootstrap", "b:1")).get(ProducerConfig.LINGER_MS_CONFIG));
        assertEquals(0, properties(Map.of("bootstrap", "b:1", "linger-ms", "0")).get(ProducerConfig.LINGER_MS_CONFIG));
    }
}
