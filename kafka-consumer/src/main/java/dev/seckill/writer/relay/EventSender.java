package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;

import java.util.List;

/** Publishes order events and returns once every one is acknowledged ({@link KafkaEventSender}; a fake in tests). */
public interface EventSender {

    /**
     * Sends the events in this order and waits for each one's ack.
     *
     * @throws SendFailedException when any send failed or was not acknowledged in time (some may have been written:
     *         the batch is published again, at least once)
     */
    void send(List<OrderStateEvent> events) throws InterruptedException;

    /** Kafka did not acknowledge every event of a batch. */
    final class SendFailedException extends RuntimeException {
        public SendFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
