package dev.seckill.writer.consume;

import dev.seckill.event.OrderEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;

/** Consumer records for unit tests. */
final class Records {

    static final String TOPIC = OrderEvent.TOPIC;

    private Records() {
    }

    static OrderEvent order(long orderId, long saleId, long userId) {
        return OrderEvent.of(orderId, saleId, userId, 1990, 1_700_000_000_000L);
    }

    static ConsumerRecord<byte[], byte[]> record(int partition, long offset, OrderEvent e) {
        return new ConsumerRecord<>(TOPIC, partition, offset, e.key().getBytes(StandardCharsets.UTF_8), e.toJson());
    }

    static ConsumerRecord<byte[], byte[]> raw(int partition, long offset, String value) {
        return new ConsumerRecord<>(TOPIC, partition, offset, null, value.getBytes(StandardCharsets.UTF_8));
    }
}
