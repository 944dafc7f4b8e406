package dev.seckill.writer;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.consume.Backoff;
import dev.seckill.writer.consume.BatchHandler;
import dev.seckill.writer.consume.KafkaClients;
import dev.seckill.writer.consume.OrderConsumerLoop;
import dev.seckill.writer.deadletter.DeadLetterPublisher;
import dev.seckill.writer.observe.WriterMetrics;
import dev.seckill.writer.store.DataSources;
import dev.seckill.writer.store.OrderBatchWriter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One running writer instance: its pool, dead-letter producer and consumer loop thread, wired together. The
 * process runs one ({@link WriterMain}); a test may run a second one in its own JVM to share the partitions.
 */
public final class Writer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Writer.class.getName());
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final HikariDataSource db;
    private final KafkaProducer<byte[], byte[]> producer;
    private final OrderConsumerLoop loop;
    private final Duration shutdownTimeout;

    private Writer(HikariDataSource db, KafkaProducer<byte[], byte[]> producer, OrderConsumerLoop loop,
                   Duration shutdownTimeout) {
        this.db = db;
        this.producer = producer;
        this.loop = loop;
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
        return new Writer(db, producer, loop, settings.shutdownTimeout());
    }

    public DataSource dataSource() {
        return db;
    }

    public OrderConsumerLoop loop() {
        return loop;
    }

    /**
     * Stops the loop (wakeup; an uncommitted batch is abandoned and re-read by the next owner), waits for it up
     * to the shutdown timeout, then closes the producer and the pool.
     */
    @Override
    public void close() {
        loop.shutdown();
        try {
            if (!loop.awaitStop(shutdownTimeout)) {
                LOG.log(System.Logger.Level.WARNING, "failed to stop the consumer loop within " + shutdownTimeout
                        + ": closing the clients under it (its batch is not committed and will be re-read)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
        db.close();
    }
}
