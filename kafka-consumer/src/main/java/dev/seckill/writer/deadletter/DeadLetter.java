package dev.seckill.writer.deadletter;

import dev.seckill.writer.batch.RejectReason;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.Objects;

/** A consumed record that can never be written, with the reason: it goes to the dead-letter topic unchanged. */
public record DeadLetter(ConsumerRecord<byte[], byte[]> origin, RejectReason reason, String detail) {

    public DeadLetter {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }
}
