package dev.seckill.writer.consume;

import dev.seckill.writer.observe.WriterMetrics;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The writer's loop, on one thread that owns the consumer: poll a batch, hand it to the {@link BatchHandler}
 * (one DB transaction, then dead letters), {@code commitSync} its offsets, repeat.
 *
 * <p>Offsets move only after the batch's effects are durable, so a crash anywhere re-delivers at most the current
 * batch, which the idempotent store then finds already written. A failed batch is rewound (seek back to its first
 * offsets) and retried after a bounded exponential backoff, during which every partition is paused and the loop
 * keeps polling: the group keeps this member, and {@link #shutdown()} can wake it. No batch state survives a poll,
 * so a rebalance (which runs only inside poll) has nothing to clean up. Offsets whose commit failed (a broker
 * restarting, its coordinator still loading) are owed: every later poll tries them again, each try bounded by
 * {@link #COMMIT_TIMEOUT}, so the loop never stalls for the client's default minute and an idle partition's lag
 * still reaches zero once Kafka is back.
 */
public final class OrderConsumerLoop implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(OrderConsumerLoop.class);
    static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(5);

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final BatchHandler handler;
    private final Backoff backoff;
    private final Duration pollTimeout;
    private final Duration stall;
    private final WriterMetrics metrics;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean looping;
    private volatile long lastPoll = System.nanoTime();
    private final AssignmentTracker assignment = new AssignmentTracker();
    /** Offsets of written batches whose commit failed; tried again after every poll. */
    private final Map<TopicPartition, OffsetAndMetadata> owed = new HashMap<>();

    /** @param stall how long without a poll makes the loop count as dead in {@link #alive()} */
    public OrderConsumerLoop(Consumer<byte[], byte[]> consumer, String topic, BatchHandler handler, Backoff backoff,
                             Duration pollTimeout, Duration stall, WriterMetrics metrics) {
        this.consumer = consumer;
        this.topic = topic;
        this.handler = handler;
        this.backoff = backoff;
        this.pollTimeout = pollTimeout;
        this.stall = stall;
        this.metrics = metrics;
    }

    @Override
    public void run() {
        looping = true;
        try {
            consumer.subscribe(List.of(topic), assignment);
            while (running.get()) {
                ConsumerRecords<byte[], byte[]> batch = poll(pollTimeout);
                if (!batch.isEmpty()) {
                    process(batch);
                } else if (!owed.isEmpty()) {
                    commit(Map.of());
                }
            }
        } catch (WakeupException e) {
            // shutdown() interrupted a blocking call: leave; an uncommitted batch is re-read by the next owner.
        } catch (RuntimeException e) {
            // Fatal (authorization, configuration, a bug): stop consuming. Health turns DOWN, so a restart follows.
            LOG.error("failed to consume " + topic + ", consumer loop stops: " + e, e);
        } finally {
            looping = false;
            close();
            stopped.countDown();
        }
    }

    /** Asks the loop to stop: thread-safe, returns at once; the loop abandons an uncommitted batch and closes. */
    public void shutdown() {
        running.set(false);
        consumer.wakeup();
    }

    /** Waits for the loop to end after {@link #shutdown()}; true when it did in time. */
    public boolean awaitStop(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The loop runs and has polled recently (it polls during backoff too, so a DB outage does not count). */
    public boolean alive() {
        return looping && System.nanoTime() - lastPoll < stall.toNanos();
    }

    /** The partitions this instance owned after the last rebalance. */
    public Set<TopicPartition> assignment() {
        return assignment.owned();
    }

    private void process(ConsumerRecords<byte[], byte[]> batch) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(batch.count());
        batch.forEach(records::add);
        try {
            handler.handle(records);
        } catch (BatchFailedException e) {
            // Transient (DB down, DLT not acking): commit nothing, give the records back, wait, read them again.
            metrics.retried();
            Duration wait = backoff.next();
            LOG.warn("failed to write a batch of " + records.size()
                    + " records, retrying it in " + wait.toMillis() + " ms: " + e.getMessage(), e);
            rewind(batch);
            pause(wait);
            return;
        }
        backoff.reset();
        commit(nextOffsets(batch));
    }

    private void commit(Map<TopicPartition, OffsetAndMetadata> batchOffsets) {
        // Owed offsets first, the batch's newer ones over them; only partitions still ours (a revoked one is its new
        // owner's to commit: it re-reads from the last commit and finds those rows written).
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(owed);
        offsets.putAll(batchOffsets);
        offsets.keySet().retainAll(consumer.assignment());
        owed.clear();
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, COMMIT_TIMEOUT);
        } catch (WakeupException e) {
            // shutdown() came while committing. The batch is in the DB: finish the commit (the wakeup is spent)
            // to spare the next owner a redelivery.
            try {
                consumer.commitSync(offsets);
            } catch (KafkaException again) {
                LOG.warn("failed to commit offsets at shutdown; the next owner re-reads"
                        + " the last batch and finds it written: " + again);
            }
        } catch (KafkaException e) {
            // A rebalance or a timeout: the rows are in the DB; a later commit covers them, or the partition's next
            // owner re-reads them and finds them written. Nothing is lost either way.
            owed.putAll(offsets);
            LOG.warn("failed to commit offsets; trying again after the next poll (until then"
                    + " a restart re-reads them and finds them written): " + e);
        }
    }

    /** Seeks each still-owned partition of the batch back to the batch's first record. */
    private void rewind(ConsumerRecords<byte[], byte[]> batch) {
        Set<TopicPartition> owned = consumer.assignment();
        for (TopicPartition tp : batch.partitions()) {
            if (owned.contains(tp)) {
                ConsumerRecord<byte[], byte[]> first = batch.records(tp).getFirst();
                consumer.seek(tp, new OffsetAndMetadata(first.offset(), first.leaderEpoch(), ""));
            }
        }
    }

    /** Waits out a backoff polling with all partitions paused, so the member stays in the group. */
    private void pause(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            consumer.pause(consumer.assignment());
            long left;
            while (running.get() && (left = deadline - System.nanoTime()) > 0) {
                ConsumerRecords<byte[], byte[]> unexpected = poll(Duration.ofNanos(left));
                // Partitions assigned by a rebalance during the pause are not paused yet: give their records back.
                rewind(unexpected);
                consumer.pause(consumer.assignment());
            }
        } finally {
            consumer.resume(consumer.paused());
        }
    }

    private ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(timeout);
        lastPoll = System.nanoTime();
        long lag = records.count();
        for (TopicPartition tp : consumer.assignment()) {
            lag += consumer.currentLag(tp).orElse(0);
        }
        metrics.lag(lag);
        return records;
    }

    private static Map<TopicPartition, OffsetAndMetadata> nextOffsets(ConsumerRecords<byte[], byte[]> batch) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : batch.partitions()) {
            ConsumerRecord<byte[], byte[]> last = batch.records(tp).getLast();
            offsets.put(tp, new OffsetAndMetadata(last.offset() + 1, last.leaderEpoch(), ""));
        }
        return offsets;
    }

    private void close() {
        try {
            // Leaving the group now hands our partitions over at once instead of after the session timeout.
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        } catch (RuntimeException e) {
            LOG.warn("failed to close the consumer: " + e, e);
        }
    }
}
