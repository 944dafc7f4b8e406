package dev.seckill.writer.batch;

import java.util.Objects;

/**
 * One event of a batch that was not written: {@code index} is its position in the list handed to the writer, so
 * the caller can find the Kafka record it came from.
 */
public record Rejection(int index, RejectReason reason, String detail) {

    public Rejection {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }
}
