package dev.seckill.writer.observe;

import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.config.WriterSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writer's meters. Production registers them on Micrometer's global registry, which Helidon serves at
 * {@code /observe/metrics}; tests pass their own registry. Names are listed in kafka-consumer/README.md.
 */
public final class WriterMetrics {

    private final DistributionSummary batchSize;
    private final Counter rowsInserted;
    private final Counter duplicates;
    private final Counter guardBreaches;
    private final Counter versionConflicts;
    private final Counter batchRetries;
    private final Counter eventsPublished;
    private final Counter relayFailures;
    private final Timer committed;
    private final Timer failed;
    private final Map<RejectReason, Counter> deadLetters = new EnumMap<>(RejectReason.class);
    private final AtomicLong lag = new AtomicLong();

    public WriterMetrics(MeterRegistry registry) {
        // Fixed buckets up to the largest batch kafka.max-poll-records allows, the same on every writer, so they
        // combine.
        batchSize = DistributionSummary.builder("seckill.writer.batch.size").baseUnit("records")
                .description("Records per polled batch (one DB transaction)")
                .serviceLevelObjectives(1, 10, 50, 100, 250, 500, 1000, 2500, WriterSettings.MAX_BATCH)
                .register(registry);
        rowsInserted = Counter.builder("seckill.writer.rows.inserted")
                .description("Order rows inserted").register(registry);
        duplicates = Counter.builder("seckill.writer.duplicates.ignored")
                .description("Redelivered or repeated events that were already written").register(registry);
        guardBreaches = Counter.builder("seckill.writer.guard.breaches")
                .description("Sales whose DB stock guard refused orders of a batch (invariant breach)").register(registry);
        versionConflicts = Counter.builder("seckill.writer.version.conflicts")
                .description("Optimistic-lock conflicts on sale rows, retried in the transaction").register(registry);
        batchRetries = Counter.builder("seckill.writer.batch.retries")
                .description("Batches rolled back and retried after a DB or dead-letter failure").register(registry);
        eventsPublished = Counter.builder("seckill.writer.events.published")
                .description("Order events the outbox relay published (acknowledged by Kafka)").register(registry);
        relayFailures = Counter.builder("seckill.writer.events.relay.failures")
                .description("Outbox relay batches rolled back after a DB or Kafka failure (published again)")
                .register(registry);
        committed = transactionTimer(registry, "committed");
        failed = transactionTimer(registry, "failed");
        for (RejectReason r : RejectReason.values()) {
            deadLetters.put(r, Counter.builder("seckill.writer.dead.letters").tag("reason", r.name())
                    .description("Records sent to the dead-letter topic").register(registry));
        }
        Gauge.builder("seckill.writer.consumer.lag", lag, AtomicLong::get).baseUnit("records")
                .description("Records in the assigned partitions not yet fetched, at the last poll").register(registry);
    }

    public void batch(int records) {
        batchSize.record(records);
    }

    public void transaction(Duration took, boolean ok) {
        (ok ? committed : failed).record(took);
    }

    public void written(BatchResult r) {
        rowsInserted.increment(r.inserted());
        duplicates.increment(r.duplicates());
        guardBreaches.increment(r.breaches().size());
        versionConflicts.increment(r.versionConflicts());
    }

    public void deadLettered(RejectReason reason) {
        deadLetters.get(reason).increment();
    }

    public void retried() {
        batchRetries.increment();
    }

    public void published(int events) {
        eventsPublished.increment(events);
    }

    public void relayFailed() {
        relayFailures.increment();
    }

    public void lag(long records) {
        lag.set(records);
    }

    private static Timer transactionTimer(MeterRegistry registry, String outcome) {
        // Buckets (Micrometer's fixed set, 1 ms .. 30 s) so that the writers' latencies combine across instances.
        return Timer.builder("seckill.writer.db.transaction").tag("outcome", outcome)
                .description("Time of one batch transaction, retries of its stock rows included")
                .publishPercentileHistogram().register(registry);
    }
}
