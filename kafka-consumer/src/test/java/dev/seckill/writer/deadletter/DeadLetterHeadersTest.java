package dev.seckill.writer.deadletter;

import dev.seckill.writer.batch.RejectReason;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DeadLetterHeadersTest {

    @Test
    void deadLetterKeepsTheRecordAndNamesItsOriginAndReason() {
        byte[] key = "42".getBytes(StandardCharsets.UTF_8);
        byte[] value = "not json".getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<byte[], byte[]> origin = new ConsumerRecord<>("seckill.orders", 2, 1234L, key, value);
        origin.headers().add("trace", "abc".getBytes(StandardCharsets.UTF_8));

        ProducerRecord<byte[], byte[]> dlt = DeadLetterHeaders.record("seckill.orders.DLT",
                new DeadLetter(origin, RejectReason.INVALID_EVENT, "unparseable JSON"));

        assertEquals("seckill.orders.DLT", dlt.topic());
        assertArrayEquals(key, dlt.key());
        assertArrayEquals(value, dlt.value());
        assertEquals("abc", DeadLetterHeaders.text(dlt.headers(), "trace"));
        assertEquals("seckill.orders", DeadLetterHeaders.text(dlt.headers(), DeadLetterHeaders.ORIGINAL_TOPIC));
        assertEquals("2", DeadLetterHeaders.text(dlt.headers(), DeadLetterHeaders.ORIGINAL_PARTITION));
        assertEquals("1234", DeadLetterHeaders.text(dlt.headers(), DeadLetterHeaders.ORIGINAL_OFFSET));
        assertEquals("INVALID_EVENT", DeadLetterHeaders.text(dlt.headers(), DeadLetterHeaders.REASON));
        assertEquals("unparseable JSON", DeadLetterHeaders.text(dlt.headers(), DeadLetterHeaders.DETAIL));
    }
}
