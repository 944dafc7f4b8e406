package dev.seckill.writer;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.writer.deadletter.DeadLetterHeaders;
import dev.seckill.writer.it.OrdersTopic;
import dev.seckill.writer.it.Sales;
import dev.seckill.writer.it.WriterEndpoint;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.seckill.writer.it.OrdersTopic.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The running writer (the stack's process) turns Kafka records into rows: idempotent, with dead letters. */
class WriterIT {

    private static final Duration WRITTEN = Duration.ofSeconds(120);

    private static OrdersTopic topic;
    private final WriterEndpoint writer = new WriterEndpoint();

    @BeforeAll
    static void connect() {
        topic = new OrdersTopic();
        Await.until(Duration.ofSeconds(60), () -> "UP".equals(new WriterEndpoint().health()), "writer health UP");
    }

    @AfterAll
    static void close() {
        topic.close();
    }

    @Test
    void sameThousandEventsDeliveredTwiceAndOutOfOrderBecomeExactlyThousandRows() {
        long sale = Sales.create(1000);
        List<OrderEvent> events = Sales.orders(sale, 1000);
        List<OrderEvent> shuffled = new ArrayList<>(events);
        Collections.shuffle(shuffled, new Random(7));
        long letters = topic.deadLetterEnd();
        double duplicatesBefore = writer.metric("seckill_writer_duplicates_ignored_total");

        Map<TopicPartition, Long> next = topic.send(events);
        next = OrdersTopic.merge(next, topic.send(events));
        next = OrdersTopic.merge(next, topic.send(shuffled));
        topic.awaitCommitted(next, WRITTEN);

        Sales.assertWrittenOnce(sale, events);
        assertEquals(0, Sales.stock(sale));
        assertTrue(writer.metric("seckill_writer_duplicates_ignored_total") - duplicatesBefore >= 2000,
                "the 2,000 repeats were counted as duplicates");
        assertEquals(List.of(), topic.deadLettersToEnd(letters, r -> Arrays.equals(r.key(),
                bytes(Long.toString(sale))), Duration.ofSeconds(30)), "a redelivered order is never a dead letter");
    }

    @Test
    void poisonRecordsInTheMiddleOfABatchAreDeadLetteredWithTheirReasonAndTheRestIsWritten() {
        long sale = Sales.create(100);
        List<OrderEvent> good = Sales.orders(sale, 80);
        byte[] key = bytes(Long.toString(sale));
        OrderEvent unknownSale = OrderEvent.of(Sales.orderId(sale, 90), 9_000_000_000L, 90, 1990, 1_700_000_000_000L);
        OrderEvent secondOfUser1 = OrderEvent.of(Sales.orderId(sale, 91), sale, 1, 1990, 1_700_000_000_000L);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        good.subList(0, 40).forEach(e -> records.add(new ProducerRecord<>(OrderEvent.TOPIC, key, e.toJson())));
        // Same key, so the same partition and, sent in one go, the same poll as their neighbours.
        records.add(new ProducerRecord<>(OrderEvent.TOPIC, key, bytes("{\"orderId\":")));
        records.add(new ProducerRecord<>(OrderEvent.TOPIC, key, unknownSale.toJson()));
        records.add(new ProducerRecord<>(OrderEvent.TOPIC, key, secondOfUser1.toJson()));
        good.subList(40, 80).forEach(e -> records.add(new ProducerRecord<>(OrderEvent.TOPIC, key, e.toJson())));
        long letters = topic.deadLetterEnd();

        Map<TopicPartition, Long> next = topic.sendAll(records);
        topic.awaitCommitted(next, WRITTEN);

        Sales.assertWrittenOnce(sale, good);
        List<ConsumerRecord<byte[], byte[]>> dead =
                topic.deadLettersToEnd(letters, r -> Arrays.equals(r.key(), key), Duration.ofSeconds(30));
        assertEquals(List.of("INVALID_EVENT", "UNKNOWN_SALE", "ORDER_CONFLICT"),
                dead.stream().map(r -> DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.REASON)).toList());
        TopicPartition origin = next.keySet().iterator().next();
        long poisonOffset = next.get(origin) - 43;
        for (int i = 0; i < 3; i++) {
            ConsumerRecord<byte[], byte[]> letter = dead.get(i);
            assertEquals(OrderEvent.TOPIC, DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.ORIGINAL_TOPIC));
            assertEquals(Integer.toString(origin.partition()),
                    DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.ORIGINAL_PARTITION));
            assertEquals(Long.toString(poisonOffset + i),
                    DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.ORIGINAL_OFFSET));
            assertArrayEqualsValue(records.get(40 + i), letter);
        }
    }

    @Test
    void ordersPastTheDbStockAreDeadLetteredAsAGuardBreachAndCounted() {
        long sale = Sales.create(5);
        List<OrderEvent> events = Sales.orders(sale, 8);
        byte[] key = bytes(Long.toString(sale));
        long letters = topic.deadLetterEnd();
        double breachesBefore = writer.metric("seckill_writer_guard_breaches_total");

        topic.awaitCommitted(topic.send(events), WRITTEN);

        Sales.assertWrittenOnce(sale, events.subList(0, 5));
        assertEquals(0, Sales.stock(sale));
        List<ConsumerRecord<byte[], byte[]>> dead =
                topic.deadLettersToEnd(letters, r -> Arrays.equals(r.key(), key), Duration.ofSeconds(30));
        assertEquals(List.of("STOCK_GUARD", "STOCK_GUARD", "STOCK_GUARD"),
                dead.stream().map(r -> DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.REASON)).toList(),
                "the three orders past the stock, and nothing else");
        assertTrue(writer.metric("seckill_writer_guard_breaches_total") > breachesBefore);
    }

    @Test
    void healthIsUpWithTheDatabaseTheConsumerAndTheRelayAndMetricsArePublished() {
        HttpJson.Response health = new HttpJson().get(Stack.get().writerUrl() + "/observe/health");
        assertEquals(200, health.status(), health.body());
        List<String> checks = new ArrayList<>();
        health.json().path("checks").forEach(c -> checks.add(c.path("name").asText() + "=" + c.path("status").asText()));
        assertEquals(List.of("consumer=UP", "db=UP", "relay=UP"), checks.stream().sorted().toList());

        String metrics = new HttpJson().get(Stack.get().writerUrl() + "/observe/metrics").body();
        for (String name : List.of("seckill_writer_batch_size_records", "seckill_writer_rows_inserted_total",
                "seckill_writer_duplicates_ignored_total", "seckill_writer_db_transaction_seconds",
                "seckill_writer_consumer_lag_records", "seckill_writer_dead_letters_total",
                "seckill_writer_guard_breaches_total", "seckill_writer_events_published_total",
                "seckill_writer_events_relay_failures_total")) {
            assertTrue(metrics.contains(name), name + " in /observe/metrics");
        }
    }

    private static void assertArrayEqualsValue(ProducerRecord<byte[], byte[]> sent, ConsumerRecord<byte[], byte[]> letter) {
        assertTrue(Arrays.equals(sent.value(), letter.value()), "the dead letter carries the original bytes");
    }
}
