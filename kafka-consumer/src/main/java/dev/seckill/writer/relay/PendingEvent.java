package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;

/** An outbox row not yet acknowledged by Kafka: its place in the outbox's order and the event it holds. */
public record PendingEvent(long seq, OrderStateEvent event) {
}
