package dev.seckill.writer.relay;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.event.OrderEventOutbox;
import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.EventContract;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.consume.Backoff;
import dev.seckill.writer.consume.KafkaClients;
import dev.seckill.writer.it.Sales;
import dev.seckill.writer.observe.WriterMetrics;
import dev.seckill.writer.store.DataSources;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.seckill.event.OrderStateEvent.Type.CONFIRMED;
import static dev.seckill.event.OrderStateEvent.Type.EXPIRED;
import static dev.seckill.event.OrderStateEvent.Type.PAID;
import static dev.seckill.event.OrderStateEvent.Type.UNIT_RETURNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two relays on one outbox, the stack's writer's and a second one in the test JVM polling ten times as often, while
 * orders' changes are committed one transaction at a time, interleaved across orders: every event reaches the topic,
 * and each order's events arrive in the order of its changes (first arrivals, duplicates dropped by event id).
 */
class TwoRelaysIT {

    private static final int ORDERS = 120;

    @Test
    void twoRelaysOnOneOutboxPublishEveryOrdersEventsInOrder() throws Exception {
        Stack stack = Stack.get();
        long sale = Sales.create(1);
        long firstOrder = 4_100_000_000_000_000_000L + sale * 1_000_000;
        Map<Long, List<OrderStateEvent.Type>> changes = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            changes.put(firstOrder + i, i % 2 == 0 ? List.of(CONFIRMED, PAID) : List.of(CONFIRMED, EXPIRED, UNIT_RETURNED));
        }
        WriterSettings.Kafka kafka = new WriterSettings.Kafka(stack.kafkaBootstrap(), "seckill.orders",
                "seckill.orders.DLT", "unused", 500, Duration.ofMillis(200), Duration.ofSeconds(10));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (HikariDataSource db = DataSources.pool(new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(),
                stack.dbPassword(), 3));
             KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(KafkaClients.producerProperties(kafka, "two-relays-it"));
             Reader topic = new Reader(stack)) {
            OutboxRelay second = new OutboxRelay(new JdbcOutbox(db),
                    new KafkaEventSender(producer, OrderStateEvent.TOPIC, Duration.ofSeconds(20)), 7,
                    Duration.ofMillis(20), new Backoff(Duration.ofMillis(50), Duration.ofSeconds(1)),
                    new WriterMetrics(registry));
            Thread relay = Thread.ofPlatform().name("second-relay").start(second);
            try {
                // Round by round: each order's next change in its own transaction, as the writer, the pay and the
                // expiry make them, while both relays publish.
                for (int round = 0; round < 3; round++) {
                    for (Map.Entry<Long, List<OrderStateEvent.Type>> o : changes.entrySet()) {
                        if (round < o.getValue().size()) {
                            commit(db, new OrderEventOutbox.Change(o.getValue().get(round), o.getKey(), sale, 1, null));
                        }
                    }
                }
                Await.until(Duration.ofSeconds(120), () -> {
                    topic.poll(sale);
                    return changes.entrySet().stream().allMatch(e -> topic.types(e.getKey()).size() >= e.getValue().size());
                }, "every event of the " + ORDERS + " orders on the topic");
            } finally {
                second.shutdown();
                relay.join(Duration.ofSeconds(30));
            }
            for (Map.Entry<Long, List<OrderStateEvent.Type>> e : changes.entrySet()) {
                assertEquals(e.getValue(), topic.types(e.getKey()), "order " + e.getKey() + "'s events in order");
            }
            double bySecond = registry.get("seckill.writer.events.published").counter().count();
            assertTrue(bySecond > 0, "the second relay published some (it polls ten times as often)");
        }
    }

    private static void commit(HikariDataSource db, OrderEventOutbox.Change change) throws SQLException {
        try (Connection c = db.getConnection()) {
            OrderEventOutbox.append(c, List.of(change));
            c.commit();
        }
    }

    /** Every partition of the events topic from its current end; records of one sale, first arrivals per order. */
    private static final class Reader implements AutoCloseable {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Map<Long, Set<OrderStateEvent.Type>> byOrder = new HashMap<>();

        Reader(Stack stack) {
            consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(),
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
            List<TopicPartition> parts = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(OrderStateEvent.TOPIC)) {
                parts.add(new TopicPartition(p.topic(), p.partition()));
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
        }

        void poll(long sale) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                EventContract.check(r.topic(), r.key(), r.value());
                OrderStateEvent e = OrderStateEvent.fromJson(r.value());
                if (e.saleId() == sale) {
                    byOrder.computeIfAbsent(Long.parseLong(e.orderId()), o -> new LinkedHashSet<>()).add(e.type());
                }
            }
        }

        List<OrderStateEvent.Type> types(long orderId) {
            return List.copyOf(byOrder.getOrDefault(orderId, Set.of()));
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
