package dev.seckill.bench;

import dev.seckill.config.ServiceConfig;
import dev.seckill.event.OrderEvent;
import dev.seckill.purchase.KafkaSettings;
import dev.seckill.purchase.OrderPublisher;
import dev.seckill.testkit.Stack;
import io.helidon.config.ConfigSources;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka part of an order alone: order events produced with the service's own producer settings
 * ({@link OrderPublisher#properties}, from its application.yaml through {@link ServiceConfig}) to a scratch topic of one partition (a sale's events
 * share one partition), keyed alike, {@code inFlight} sends outstanding at once as a crowd of purchases keeps them,
 * each counted once acknowledged ({@code acks=all}).
 */
final class KafkaCost {

    static final String TOPIC = "seckill.bench.parts";

    private KafkaCost() {
    }

    /** Produces {@code records} events and returns how many were acknowledged. */
    static long produce(Stack stack, int records, int inFlight) throws IOException, InterruptedException {
        KafkaSettings kafka = KafkaSettings.from(ServiceConfig.with(
                ConfigSources.create(Map.of("kafka.bootstrap", stack.kafkaBootstrap()))).get("kafka"));
        createTopic(stack);
        Map<String, Object> props = OrderPublisher.properties(kafka);
        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Semaphore window = new Semaphore(inFlight);
        long now = System.currentTimeMillis();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            for (int i = 0; i < records; i++) {
                OrderEvent e = OrderEvent.of(1_000_000L + i, RedisCeiling.TEST_SALE, 1_000_000L + i, 100, now);
                window.acquire();
                producer.send(new ProducerRecord<>(TOPIC, e.key(), e.toJson()), (meta, error) -> {
                    (error == null ? acked : failed).incrementAndGet();
                    window.release();
                });
            }
            if (!window.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
                throw new IOException("Kafka did not acknowledge the last sends within 30 s");
            }
        }
        if (failed.get() > 0) {
            throw new IOException(failed.get() + " of " + records + " sends to " + TOPIC + " failed");
        }
        return acked.get();
    }

    private static void createTopic(Stack stack) throws IOException, InterruptedException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IOException("failed to create " + TOPIC + ": " + e.getCause(), e);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("failed to create " + TOPIC + " within 30 s", e);
        }
    }
}
