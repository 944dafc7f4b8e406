package dev.seckill.writer.consume;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.store.OrderStore;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A store that records what it was asked to write, can fail a number of times, and answers as told. */
final class FakeStore implements OrderStore {

    final List<List<OrderEvent>> calls = new CopyOnWriteArrayList<>();
    /** The request ids each call got, index for index with its events. */
    final List<List<String>> requestIds = new CopyOnWriteArrayList<>();
    final AtomicInteger failuresLeft = new AtomicInteger();
    volatile Runnable onWrite = () -> { };
    volatile Function<List<OrderEvent>, BatchResult> answer =
            events -> new BatchResult(events.size(), 0, List.of(), List.of(), 0);

    @Override
    public BatchResult write(List<OrderEvent> events, List<String> requestIds) throws SQLException {
        calls.add(List.copyOf(events));
        this.requestIds.add(new java.util.ArrayList<>(requestIds));
        onWrite.run();
        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SQLTransientConnectionException("connection refused (the DB is down)");
        }
        return answer.apply(events);
    }
}
