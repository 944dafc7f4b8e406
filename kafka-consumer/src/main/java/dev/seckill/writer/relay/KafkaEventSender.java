package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends order events to their topic keyed by order id, through an idempotent {@code acks=all} producer (the writer's
 * {@code KafkaClients.producerProperties}): one key is one partition, and the producer keeps a partition's records
 * in the order they were sent, retries included.
 */
public final class KafkaEventSender implements EventSender {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Duration ackTimeout;

    /** @param ackTimeout the longest wait for a batch's acks: beyond the producer's delivery timeout */
    public KafkaEventSender(Producer<byte[], byte[]> producer, String topic, Duration ackTimeout) {
        this.producer = producer;
        this.topic = topic;
        this.ackTimeout = ackTimeout;
    }

    @Override
    public void send(List<OrderStateEvent> events) throws InterruptedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>(events.size());
        try {
            for (OrderStateEvent e : events) {
                acks.add(producer.send(new ProducerRecord<>(topic, e.key().getBytes(StandardCharsets.UTF_8),
                        e.toJson())));
            }
            long deadline = System.nanoTime() + ackTimeout.toNanos();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            throw new SendFailedException("failed to publish " + events.size() + " order events to " + topic + ": "
                    + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new SendFailedException("failed to have " + events.size() + " order events acknowledged by "
                    + topic + " within " + ackTimeout, e);
        } catch (org.apache.kafka.common.KafkaException e) {
            // send() itself refused (metadata not available within max.block.ms, the producer closed).
            throw new SendFailedException("failed to send order events to " + topic + ": " + e, e);
        }
    }
}
