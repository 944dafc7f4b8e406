package dev.seckill.writer.consume;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.GuardBreach;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.batch.Rejection;
import dev.seckill.writer.deadletter.DeadLetterHeaders;
import dev.seckill.writer.deadletter.DeadLetterPublisher;
import dev.seckill.writer.observe.WriterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.seckill.writer.consume.Records.order;
import static dev.seckill.writer.consume.Records.raw;
import static dev.seckill.writer.consume.Records.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchHandlerTest {

    private final FakeStore store = new FakeStore();
    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final BatchHandler handler = new BatchHandler(store,
            new DeadLetterPublisher(producer, OrderEvent.DEAD_LETTER_TOPIC, Duration.ofSeconds(5)),
            new WriterMetrics(registry));

    @Test
    void eachOrdersRequestIdHeaderGoesToTheStoreForItsConfirmedEvent() {
        OrderEvent a = order(1, 10, 1);
        OrderEvent b = order(2, 10, 2);
        ConsumerRecord<byte[], byte[]> withId = record(0, 100, a);
        withId.headers().add(OrderEvent.REQUEST_ID_HEADER, "req-a".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        handler.handle(List.of(withId, raw(0, 101, "{not json"), record(0, 102, b)));

        assertEquals(List.of(List.of(a, b)), store.calls);
        assertEquals(List.of(java.util.Arrays.asList("req-a", "")), store.requestIds, "none for a record without one");
    }

    @Test
    void poisonRecordInTheMiddleIsDeadLetteredAndTheOthersAreWritten() {
        OrderEvent a = order(1, 10, 1);
        OrderEvent b = order(2, 10, 2);
        handler.handle(List.of(record(0, 100, a), raw(0, 101, "{not json"), record(0, 102, b)));

        assertEquals(List.of(List.of(a, b)), store.calls);
        assertEquals(1, producer.history().size());
        ProducerRecord<byte[], byte[]> letter = producer.history().getFirst();
        assertEquals(OrderEvent.DEAD_LETTER_TOPIC, letter.topic());
        assertEquals("101", DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.ORIGINAL_OFFSET));
        assertEquals("INVALID_EVENT", DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.REASON));
        assertTrue(DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.DETAIL).startsWith("unparseable JSON"));
        assertEquals(1.0, registry.get("seckill.writer.dead.letters").tag("reason", "INVALID_EVENT").counter().count());
        assertEquals(2.0, registry.get("seckill.writer.rows.inserted").counter().count());
    }

    @Test
    void ordersTheStoreRefusesAreDeadLetteredWithTheirOwnRecord() {
        store.answer = events -> new BatchResult(1, 0,
                List.of(new Rejection(1, RejectReason.STOCK_GUARD, "sale 10 has 1 units in the DB for 2 new orders")),
                List.of(new GuardBreach(10, 2, 1)), 0);
        ConsumerRecord<byte[], byte[]> refused = record(0, 6, order(2, 10, 2));
        handler.handle(List.of(raw(0, 4, ""), record(0, 5, order(1, 10, 1)), refused));

        assertEquals(2, producer.history().size());
        ProducerRecord<byte[], byte[]> letter = producer.history().get(1);
        assertEquals("6", DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.ORIGINAL_OFFSET));
        assertEquals("STOCK_GUARD", DeadLetterHeaders.text(letter.headers(), DeadLetterHeaders.REASON));
        assertEquals(1.0, registry.get("seckill.writer.guard.breaches").counter().count());
    }

    @Test
    void databaseFailureFailsTheBatchBeforeAnyDeadLetterIsSent() {
        store.failuresLeft.set(1);
        assertThrows(BatchFailedException.class,
                () -> handler.handle(List.of(raw(0, 1, "garbage"), record(0, 2, order(1, 10, 1)))));
        assertTrue(producer.history().isEmpty(), "dead letters go out only after the DB transaction committed");
        assertEquals(1L, registry.get("seckill.writer.db.transaction").tag("outcome", "failed").timer().count());
    }

    @Test
    void unacknowledgedDeadLetterFailsTheBatch() {
        MockProducer<byte[], byte[]> silent =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        BatchHandler h = new BatchHandler(store,
                new DeadLetterPublisher(silent, OrderEvent.DEAD_LETTER_TOPIC, Duration.ofMillis(50)),
                new WriterMetrics(new SimpleMeterRegistry()));
        assertThrows(BatchFailedException.class, () -> h.handle(List.of(raw(0, 1, "garbage"))));
    }

    @Test
    void batchOfOnlyPoisonNeverTouchesTheDatabase() {
        handler.handle(List.of(raw(0, 1, "x"), raw(0, 2, "{\"v\":2}")));
        assertTrue(store.calls.isEmpty());
        assertEquals(2, producer.history().size());
    }
}
