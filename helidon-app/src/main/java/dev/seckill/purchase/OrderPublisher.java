package dev.seckill.purchase;

import dev.seckill.breaker.Outcomes;
import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.http.Deadline;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Publishes order events and waits for the broker's acknowledgement before a purchase may answer 202. */
public final class OrderPublisher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OrderPublisher.class);

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final long waitMillis;
    private final Outcomes breaker;

    public OrderPublisher(Producer<String, byte[]> producer, String topic, DeliveryTimeout timeout) {
        this(producer, topic, timeout, Outcomes.NONE);
    }

    /** @param breaker records each send's outcome (Kafka's breaker); it was consulted before the unit was taken */
    public OrderPublisher(Producer<String, byte[]> producer, String topic, DeliveryTimeout timeout, Outcomes breaker) {
        this.producer = producer;
        this.topic = topic;
        this.waitMillis = timeout.settled().toMillis();
        this.breaker = breaker;
    }

    public static OrderPublisher create(KafkaSettings kafka, Outcomes breaker) {
        return new OrderPublisher(new KafkaProducer<>(properties(kafka)), kafka.topic(), kafka.deliveryTimeout(),
                breaker);
    }

    static Map<String, Object> properties(KafkaSettings kafka) {
        int deliveryTimeout = kafka.deliveryTimeout().millis();
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
        // A 202 promises the order is durable: every in-sync replica must have it.
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // Retries after a lost ack must not write the event twice.
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // The most in flight that idempotence still keeps in order.
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        // Under a stampede many buyers share one request; a few ms of latency for far fewer round trips
        // (kafka.linger-ms).
        p.put(ProducerConfig.LINGER_MS_CONFIG, kafka.lingerMs());
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // Bounded time to a definite answer: after this the send fails and the client gets 503 naming the order. The
        // unit stays held for a resend (a failed send may still have been written: Purchaser, docs/failures.md).
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, deliveryTimeout);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1000, deliveryTimeout - 100));
        // With the broker down, send() must not block a request thread for the default minute.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Math.min(2000, deliveryTimeout));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return p;
    }

    /**
     * Fetches the topic's metadata now, retrying until {@code within} has passed, so that the first purchases do not
     * wait for it: a producer that never sent learns the topic on its first send, which on a busy or freshly started
     * cluster can take longer than max.block.ms and fail those purchases. Returns whether it succeeded; a failure is
     * only logged (purchases then fetch it themselves, or answer 503 while Kafka is down).
     */
    public boolean warmUp(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                producer.partitionsFor(topic);
                return true;
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadline >= 0) {
                    LOG.warn("no metadata for topic " + topic + " within " + within
                            + " at start; the first purchases fetch it: " + e.getMessage());
                    return false;
                }
                if (!pause()) {
                    return false;
                }
            }
        }
    }

    /** A short back-off between metadata attempts (one that failed fast must not spin); false when interrupted. */
    private static boolean pause() {
        try {
            Thread.sleep(200);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Where the broker put an event; the purchase's log line names it, and so does the writer's line of the row. */
    public record Delivery(int partition, long offset) {
    }

    /**
     * Sends the event keyed by sale id, the purchase's request id in its headers, and blocks (on a virtual thread)
     * until it is acknowledged.
     *
     * @param requestId the X-Request-Id of the purchase ({@link OrderEvent#REQUEST_ID_HEADER}); null: no header
     * @throws DependencyUnavailable when Kafka did not acknowledge it
     */
    public Delivery publish(OrderEvent event, String requestId) {
        return breaker.record(() -> send(event, requestId));
    }

    /**
     * The same, answering within {@code maxWaitMillis} (what is left of a purchase's deadline): past it, the send is
     * reported failed while its wait for Kafka goes on, on a virtual thread of its own, to the delivery timeout, so
     * the breaker records how Kafka really answered (a deadline is not Kafka's failure, and a Kafka that is down must
     * still open the breaker).
     */
    public Delivery publish(OrderEvent event, String requestId, long maxWaitMillis) {
        if (maxWaitMillis >= waitMillis) {
            return publish(event, requestId);
        }
        return Deadline.in(Duration.ofMillis(maxWaitMillis)).await("acknowledgement of order " + event.orderId(),
                () -> publish(event, requestId));
    }

    private Delivery send(OrderEvent event, String requestId) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, event.key(), event.toJson());
        if (requestId != null) {
            record.headers().add(OrderEvent.REQUEST_ID_HEADER, requestId.getBytes(StandardCharsets.UTF_8));
        }
        try {
            RecordMetadata acked = producer.send(record).get(waitMillis, TimeUnit.MILLISECONDS);
            return new Delivery(acked.partition(), acked.offset());
        } catch (ExecutionException e) {
            throw new DependencyUnavailable("failed to publish order " + event.orderId(), e.getCause());
        } catch (TimeoutException e) {
            throw new DependencyUnavailable("failed to publish order " + event.orderId() + ": no acknowledgement in "
                    + waitMillis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DependencyUnavailable("interrupted while publishing the order", e);
        } catch (RuntimeException e) {
            // send() itself throws when metadata cannot be fetched within max.block.ms (broker down).
            throw new DependencyUnavailable("failed to publish order " + event.orderId(), e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
