package dev.seckill.writer;

import dev.seckill.event.OrderEvent;
import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.it.OrdersTopic;
import dev.seckill.writer.it.Sales;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.seckill.writer.it.OrdersTopic.bytes;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two writer instances in one group over the 3-partition topic: the stack's process and a second one started in
 * this JVM. Kafka splits the partitions between them; every order is still written exactly once.
 */
class TwoWritersIT {

    private static final int SALES = 6;
    private static final int PER_SALE = 300;

    @Test
    void twoWritersInOneGroupShareThePartitionsAndWriteEveryOrderOnce() {
        Stack stack = Stack.get();
        WriterSettings settings = new WriterSettings(
                new WriterSettings.Kafka(stack.kafkaBootstrap(), OrderEvent.TOPIC, OrderEvent.DEAD_LETTER_TOPIC,
                        OrdersTopic.GROUP, 500, Duration.ofMillis(200), Duration.ofSeconds(10)),
                new WriterSettings.Db(stack.jdbcUrl(), stack.dbUser(), stack.dbPassword(), 3),
                new WriterSettings.Retry(Duration.ofMillis(100), Duration.ofSeconds(2), 5),
                // A second relay too: it stands by, or publishes while the stack's stands by.
                new WriterSettings.Relay(true, OrderStateEvent.TOPIC, Duration.ofMillis(200), 500),
                Duration.ofSeconds(60), Duration.ofSeconds(10));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        List<Long> sales = new ArrayList<>();
        List<OrderEvent> all = new ArrayList<>();
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int s = 0; s < SALES; s++) {
            long sale = Sales.create(PER_SALE);
            sales.add(sale);
            for (OrderEvent e : Sales.orders(sale, PER_SALE)) {
                all.add(e);
                // Sale s on partition s % 3: every partition carries orders, and each sale stays on one partition.
                records.add(new ProducerRecord<>(OrderEvent.TOPIC, s % 3, bytes(e.key()), e.toJson()));
            }
        }

        try (OrdersTopic topic = new OrdersTopic(); Writer second = Writer.start(settings, registry)) {
            Await.until(Duration.ofSeconds(90), () -> !second.loop().assignment().isEmpty(),
                    "the second writer to get partitions");
            Map<TopicPartition, Long> next = topic.sendAll(records);
            topic.awaitCommitted(next, Duration.ofMinutes(3));

            double secondWrote = registry.get("seckill.writer.rows.inserted").counter().count();
            assertTrue(secondWrote > 0 && secondWrote < SALES * PER_SALE,
                    "both instances wrote a share (the second wrote " + secondWrote + ")");
        }
        for (int s = 0; s < SALES; s++) {
            long sale = sales.get(s);
            Sales.assertWrittenOnce(sale, all.subList(s * PER_SALE, (s + 1) * PER_SALE));
        }
    }
}
