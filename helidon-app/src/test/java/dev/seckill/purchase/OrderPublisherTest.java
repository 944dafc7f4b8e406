package dev.seckill.purchase;

import dev.seckill.breaker.Outcomes;
import dev.seckill.config.TestConfig;
import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.testkit.Await;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(0, properties(Map.of("KAFKA_LINGER_MS", "0")).get(ProducerConfig.LINGER_MS_CONFIG));
    }

    /**
     * A purchase's deadline ends its wait, not the send's: the breaker records how Kafka answers in the end, so a
     * Kafka that is down still opens it while every purchase is answered in time.
     */
    @Test
    void pastAPurchasesDeadlineTheBreakerStillRecordsKafkasRealAnswer() {
        MockProducer<String, byte[]> producer = new MockProducer<>(false, null, new StringSerializer(),
                new ByteArraySerializer());
        List<Object> recorded = new CopyOnWriteArrayList<>();
        Outcomes breaker = new Outcomes() {
            @Override
            public <T> T record(Supplier<T> call) {
                try {
                    T t = call.get();
                    recorded.add("ok");
                    return t;
                } catch (RuntimeException e) {
                    recorded.add(e);
                    throw e;
                }
            }
        };
        OrderPublisher publisher = new OrderPublisher(producer, OrderEvent.TOPIC,
                new DeliveryTimeout(Duration.ofSeconds(30)), breaker);
        DependencyUnavailable late = assertThrows(DependencyUnavailable.class,
                () -> publisher.publish(OrderEvent.of(9, 1, 2, 100, 0), null, 50));
        assertTrue(late.getMessage().contains("order 9") && late.getMessage().contains("deadline"), late.getMessage());
        assertEquals(List.of(), recorded, "recorded before Kafka answered");
        // The send runs on the deadline's own thread, which a loaded machine may start after the deadline passed.
        Await.until(Duration.ofSeconds(30), () -> producer.errorNext(
                new TimeoutException("Expiring 1 record(s): delivery timeout")), "the send to reach Kafka");
        Await.until(Duration.ofSeconds(30), () -> recorded.size() == 1, "the breaker to record Kafka's answer");
        assertInstanceOf(DependencyUnavailable.class, recorded.getFirst());
        assertInstanceOf(TimeoutException.class, ((Throwable) recorded.getFirst()).getCause(),
                "recorded as Kafka's own failure: " + recorded);
    }
}
