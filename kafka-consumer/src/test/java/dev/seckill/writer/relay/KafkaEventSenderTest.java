package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.EventContract;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class KafkaEventSenderTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00.123Z");

    private final List<OrderStateEvent> events = List.of(
            OrderStateEvent.of(OrderStateEvent.Type.CONFIRMED, 11, 7, 42, AT, "buy-1"),
            OrderStateEvent.of(OrderStateEvent.Type.PAID, 11, 7, 42, AT.plusSeconds(5), "pay-1"),
            OrderStateEvent.of(OrderStateEvent.Type.EXPIRED, 12, 7, 43, AT.plusSeconds(9), null),
            OrderStateEvent.of(OrderStateEvent.Type.UNIT_RETURNED, 12, 7, 43, AT.plusSeconds(9), null));

    @Test
    void eachEventGoesKeyedByItsOrderInSendOrderAsTheAsyncApiDocumentDescribesIt() throws Exception {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        new KafkaEventSender(producer, OrderStateEvent.TOPIC, Duration.ofSeconds(5)).send(events);

        List<ProducerRecord<byte[], byte[]>> sent = producer.history();
        assertEquals(events.size(), sent.size());
        for (int i = 0; i < sent.size(); i++) {
            ProducerRecord<byte[], byte[]> r = sent.get(i);
            assertEquals(OrderStateEvent.TOPIC, r.topic());
            assertEquals(events.get(i).orderId(), new String(r.key(), StandardCharsets.UTF_8));
            assertEquals(events.get(i), OrderStateEvent.fromJson(r.value()));
            EventContract.check(r.topic(), r.key(), r.value());
        }
    }

    @Test
    void aSendKafkaRefusesFailsTheWholeBatch() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        KafkaEventSender sender = new KafkaEventSender(producer, OrderStateEvent.TOPIC, Duration.ofSeconds(5));
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> sending = pool.submit(() -> {
                sender.send(events);
                return null;
            });
            dev.seckill.testkit.Await.until(Duration.ofSeconds(5), () -> producer.history().size() == events.size(),
                    "the sends");
            producer.completeNext();
            producer.errorNext(new org.apache.kafka.common.errors.NotEnoughReplicasException("1 of 2 in sync"));
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    sending::get);
            assertEquals(EventSender.SendFailedException.class, e.getCause().getClass());
        }
    }

    @Test
    void acksThatDoNotComeInTimeFailTheBatch() {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
        KafkaEventSender sender = new KafkaEventSender(producer, OrderStateEvent.TOPIC, Duration.ofMillis(50));
        assertThrows(EventSender.SendFailedException.class, () -> sender.send(events));
    }
}
