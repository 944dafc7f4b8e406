package dev.seckill.writer;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.consume.Backoff;
import dev.seckill.writer.consume.BatchHandler;
import dev.seckill.writer.consume.KafkaClients;
import dev.seckill.writer.consume.OrderConsumerLoop;
import dev.seckill.writer.deadletter.DeadLetterPublisher;
import dev.seckill.writer.observe.WriterMetrics;
import dev.seckill.writer.relay.JdbcOutbox;
import dev.seckill.writer.relay.KafkaEventSender;
import dev.seckill.writer.relay.OutboxRelay;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One running writer instance: its pool, dead-letter producer and consumer loop thread, and the outbox relay with its
 * producer and thread, wired together. The
 * process runs one ({@link WriterMain}); a test may run a second one in its own JVM to share the partitions.
 */
public final class Writer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Writer.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final HikariDataSource db;
    private final KafkaProducer<byte[], byte[]> producer;
    private final OrderConsumerLoop loop;
    private final Relay relay;
    private final Duration shutdownTimeout;

    /** The relay and its own producer (its record keys and ack waits are not the dead letters'); null when off. */
    private record Relay(OutboxRelay relay, KafkaProducer<byte[], byte[]> producer) {
    }

    private Writer(HikariDataSource db, KafkaProducer<byte[], byte[]> producer, OrderConsumerLoop loop, Relay relay,
                   Duration shutdownTimeout) {
        this.db = db;
        this.producer = producer;
        this.loop = loop;
        this.relay = relay;
        this.shutdownTimeout = shutdownTimeout;
    }

    /** Builds the clients and starts the consumer loop on its own thread. */
    public static Writer start(WriterSettings settings, MeterRegistry registry) {
        String clientId = "seckill-writer-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet();
        WriterMetrics metrics = new WriterMetrics(registry);
        HikariDataSource db = DataSources.pool(settings.db());
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(KafkaClients.producerProperties(settings.kafka(), clientId + "-dlt"));
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(KafkaClients.consumerProperties(settings.kafka(), clientId));
        BatchHandler handler = new BatchHandler(
                new OrderBatchWriter(db, settings.retry().versionAttempts()),
                new DeadLetterPublisher(producer, settings.kafka().deadLetterTopic(),
                        Duration.ofMillis(KafkaClients.DELIVERY_TIMEOUT_MS + 1000)),
                metrics);
        OrderConsumerLoop loop = new OrderConsumerLoop(consumer, settings.kafka().topic(), handler,
                new Backoff(settings.retry().initialBackoff(), settings.retry().maxBackoff()),
                settings.kafka().pollTimeout(), settings.stall(), metrics);
        Thread.ofPlatform().name(clientId).start(loop);
        return new Writer(db, producer, loop, startRelay(settings, db, clientId, metrics), settings.shutdownTimeout());
    }

    private static Relay startRelay(WriterSettings settings, DataSource db, String clientId, WriterMetrics metrics) {
        WriterSettings.Relay r = settings.relay();
        if (!r.enabled()) {
            return null;
        }
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(KafkaClients.producerProperties(settings.kafka(), clientId + "-events"));
        OutboxRelay relay = new OutboxRelay(new JdbcOutbox(db),
                new KafkaEventSender(producer, r.topic(), Duration.ofMillis(KafkaClients.DELIVERY_TIMEOUT_MS + 1000)),
                r.batch(), r.poll(), new Backoff(settings.retry().initialBackoff(), settings.retry().maxBackoff()),
                metrics);
        Thread.ofPlatform().name(clientId + "-relay").start(relay);
        return new Relay(relay, producer);
    }

    public DataSource dataSource() {
        return db;
    }

    public OrderConsumerLoop loop() {
        return loop;
    }

    /** The outbox relay's thread runs (or this instance runs none: relay.enabled is false). */
    public boolean relayAlive() {
        return relay == null || relay.relay().alive();
    }

    /**
     * Stops the loop (wakeup; an uncommitted batch is abandoned and re-read by the next owner), waits for it up
     * to the shutdown timeout, then closes the producer and the pool.
     */
    @Override
    public void close() {
        loop.shutdown();
        if (relay != null) {
            relay.relay().shutdown();
        }
        try {
            if (!loop.awaitStop(shutdownTimeout)) {
                LOG.warn("failed to stop the consumer loop within " + shutdownTimeout
                        + ": closing the clients under it (its batch is not committed and will be re-read)");
            }
            if (relay != null && !relay.relay().awaitStop(shutdownTimeout)) {
                LOG.warn("failed to stop the outbox relay within " + shutdownTimeout
                        + ": closing the clients under it (its batch is not committed and will be published again)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
        if (relay != null) {
            relay.producer().close(Duration.ofSeconds(5));
        }
        db.close();
    }
}
