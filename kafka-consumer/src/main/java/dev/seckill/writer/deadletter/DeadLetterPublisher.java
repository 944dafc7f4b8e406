package dev.seckill.writer.deadletter;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends a batch's dead letters and waits until Kafka has acknowledged every one: only then may the consumer
 * commit past them, or a crash in between would lose the only copy of a refused record. A retry after a failure
 * may send a letter twice; the DLT is at-least-once, which its readers (people, reconcile) can live with.
 */
public final class DeadLetterPublisher {

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Duration ackTimeout;

    /** @param ackTimeout how long to wait for all acknowledgements; longer than the producer's delivery timeout */
    public DeadLetterPublisher(Producer<byte[], byte[]> producer, String topic, Duration ackTimeout) {
        this.producer = producer;
        this.topic = topic;
        this.ackTimeout = ackTimeout;
    }

    /** @throws DeadLetterException when any letter was not acknowledged */
    public void publish(List<DeadLetter> letters) {
        if (letters.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + ackTimeout.toNanos();
        try {
            List<Future<RecordMetadata>> acks = new ArrayList<>(letters.size());
            for (DeadLetter letter : letters) {
                acks.add(producer.send(DeadLetterHeaders.record(topic, letter)));
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            throw new DeadLetterException("failed to publish dead letters to " + topic + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new DeadLetterException("failed to publish dead letters to " + topic + ": no ack in " + ackTimeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeadLetterException("failed to publish dead letters to " + topic + ": interrupted", e);
        } catch (RuntimeException e) {
            // send() itself fails fast on e.g. missing metadata for the topic (max.block.ms).
            throw new DeadLetterException("failed to publish dead letters to " + topic + ": " + e, e);
        }
    }
}
