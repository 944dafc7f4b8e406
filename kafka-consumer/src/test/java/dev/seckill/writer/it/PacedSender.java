package dev.seckill.writer.it;

import dev.seckill.event.OrderEvent;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Orders that keep arriving while a test breaks something: sends a chunk every period in the background, as a
 * stream of buyers would, and completes with the offsets after the last record of each partition.
 */
public final class PacedSender implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final CompletableFuture<Map<TopicPartition, Long>> done = new CompletableFuture<>();
    private final AtomicInteger sent = new AtomicInteger();

    public PacedSender(OrdersTopic topic, List<OrderEvent> events, int chunk, Duration every) {
        Map<TopicPartition, Long> next = new HashMap<>();
        AtomicInteger from = new AtomicInteger();
        ScheduledFuture<?>[] task = new ScheduledFuture<?>[1];
        task[0] = timer.scheduleAtFixedRate(() -> {
            try {
                int start = from.getAndAdd(chunk);
                if (start >= events.size()) {
                    done.complete(next);
                    task[0].cancel(false);
                    return;
                }
                List<OrderEvent> part = events.subList(start, Math.min(events.size(), start + chunk));
                topic.send(part).forEach((tp, o) -> next.merge(tp, o, Math::max));
                sent.addAndGet(part.size());
            } catch (Throwable t) {
                done.completeExceptionally(t);
                task[0].cancel(false);
            }
        }, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    public int sent() {
        return sent.get();
    }

    /** Waits until every event was sent and acknowledged; returns the offsets after them. */
    public Map<TopicPartition, Long> finish(Duration timeout) {
        try {
            return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError("failed to send the paced orders: " + e, e);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
