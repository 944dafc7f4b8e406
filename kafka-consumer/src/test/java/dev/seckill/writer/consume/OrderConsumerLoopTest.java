package dev.seckill.writer.consume;

import dev.seckill.event.OrderEvent;
import dev.seckill.testkit.Await;
import dev.seckill.writer.deadletter.DeadLetterPublisher;
import dev.seckill.writer.observe.WriterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.seckill.writer.consume.LogConsumer.TP;
import static dev.seckill.writer.consume.Records.order;
import static dev.seckill.writer.consume.Records.raw;
import static dev.seckill.writer.consume.Records.record;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OrderConsumerLoopTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final LogConsumer consumer = new LogConsumer();
    private final FakeStore store = new FakeStore();
    private final MockProducer<byte[], byte[]> producer =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final WriterMetrics metrics = new WriterMetrics(registry);
    private final OrderConsumerLoop loop = new OrderConsumerLoop(consumer, Records.TOPIC,
            new BatchHandler(store, new DeadLetterPublisher(producer, OrderEvent.DEAD_LETTER_TOPIC,
                    Duration.ofSeconds(5)), metrics),
            new Backoff(Duration.ofMillis(1), Duration.ofMillis(8)), Duration.ofMillis(20), Duration.ofSeconds(30),
            metrics);
    private final Thread thread = Thread.ofPlatform().name("loop-under-test").unstarted(loop);

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        assertTrue(loop.awaitStop(DEADLINE), "loop did not stop");
    }

    private Long committed() {
        return consumer.commits.isEmpty() ? null : consumer.commits.getLast();
    }

    @Test
    void offsetsAreCommittedOnlyAfterTheBatchIsWritten() {
        List<Long> committedWhenWriting = new CopyOnWriteArrayList<>();
        // The store runs on the loop thread, so it may look at the consumer: nothing is committed before it returns.
        store.onWrite = () -> committedWhenWriting.add(committed() == null ? -1L : committed());
        consumer.append(record(0, 0, order(1, 10, 1)));
        consumer.append(record(0, 1, order(2, 10, 2)));
        consumer.append(record(0, 2, order(3, 10, 3)));
        thread.start();

        Await.until(DEADLINE, () -> Long.valueOf(3).equals(committed()), "offset 3 committed");
        assertEquals(List.of(3L), consumer.commits);
        assertEquals(List.of(-1L), committedWhenWriting);
        assertEquals(1, store.calls.size());
        assertEquals(3, store.calls.getFirst().size());
        assertTrue(loop.alive());
        assertEquals(Set.of(TP), loop.assignment());
    }

    @Test
    void aFailedCommitIsOwedAndMadeOnALaterPollEvenWithNoNewRecords() {
        consumer.failingCommits = 2;
        consumer.append(record(0, 0, order(1, 10, 1)));
        consumer.append(record(0, 1, order(2, 10, 2)));
        thread.start();

        // Nothing more arrives: only the owed offsets, tried again after later polls, can move the commit.
        Await.until(DEADLINE, () -> Long.valueOf(2).equals(committed()), "offset 2 committed after two failures");
        assertEquals(List.of(2L), consumer.commits);
        assertEquals(1, store.calls.size(), "the batch was written once, not re-read");
    }

    @Test
    void failedBatchIsRewoundAndRetriedUntilTheDatabaseAnswers() {
        store.failuresLeft.set(3);
        List<Long> committedWhenWriting = new CopyOnWriteArrayList<>();
        store.onWrite = () -> committedWhenWriting.add(committed() == null ? -1L : committed());
        consumer.append(record(0, 0, order(1, 10, 1)));
        consumer.append(raw(0, 1, "poison"));
        consumer.append(record(0, 2, order(2, 10, 2)));
        thread.start();

        Await.until(DEADLINE, () -> Long.valueOf(3).equals(committed()), "offset 3 committed after the retries");
        assertEquals(4, store.calls.size(), "three failures, then the same batch once more");
        store.calls.forEach(call -> assertEquals(List.of(order(1, 10, 1), order(2, 10, 2)), call));
        assertEquals(List.of(-1L, -1L, -1L, -1L), committedWhenWriting, "nothing committed while failing");
        assertEquals(1, producer.history().size(), "the poison is dead-lettered once, after the DB succeeded");
        assertEquals(3.0, registry.get("seckill.writer.batch.retries").counter().count());
    }

    @Test
    void shutdownWhileTheDatabaseIsDownAbandonsTheBatchUncommitted() throws InterruptedException {
        store.failuresLeft.set(Integer.MAX_VALUE);
        consumer.append(record(0, 0, order(1, 10, 1)));
        thread.start();
        Await.until(DEADLINE, () -> store.calls.size() >= 2, "the batch to be retried");

        loop.shutdown();
        assertTrue(loop.awaitStop(DEADLINE));
        assertEquals(List.of(), consumer.commits);
        assertTrue(consumer.closed());
        assertFalse(loop.alive());
    }
}
