package dev.seckill.writer.consume;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.GuardBreach;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.batch.Rejection;
import dev.seckill.writer.deadletter.DeadLetter;
import dev.seckill.writer.deadletter.DeadLetterException;
import dev.seckill.writer.deadletter.DeadLetterPublisher;
import dev.seckill.writer.observe.OrderLog;
import dev.seckill.writer.observe.WriterMetrics;
import dev.seckill.writer.store.OrderStore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one polled batch into its effects, in the order that makes a crash at any point harmless: parse every
 * record, write the valid ones in one DB transaction, then send the refused ones to the dead-letter topic and wait
 * for the acks. Only when this returns may the caller commit the offsets.
 */
public final class BatchHandler {

    private static final Logger LOG = LoggerFactory.getLogger(BatchHandler.class);

    private final OrderStore store;
    private final DeadLetterPublisher deadLetters;
    private final WriterMetrics metrics;
    private final OrderLog orderLog = new OrderLog();

    public BatchHandler(OrderStore store, DeadLetterPublisher deadLetters, WriterMetrics metrics) {
        this.store = store;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
    }

    /** @throws BatchFailedException when the DB or the DLT failed: commit nothing, retry the same records */
    public void handle(List<ConsumerRecord<byte[], byte[]>> records) {
        metrics.batch(records.size());
        List<OrderEvent> events = new ArrayList<>(records.size());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.size());
        List<DeadLetter> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            try {
                events.add(OrderEvent.fromJson(r.value()));
                sources.add(r);
            } catch (OrderEvent.InvalidEventException e) {
                letters.add(new DeadLetter(r, RejectReason.INVALID_EVENT, e.getMessage()));
            }
        }
        BatchResult result = write(events, sources.stream().map(OrderLog::requestId).toList());
        if (!events.isEmpty()) {
            orderLog.written(sources, events, result);
        }
        for (Rejection rejection : result.rejections()) {
            letters.add(new DeadLetter(sources.get(rejection.index()), rejection.reason(), rejection.detail()));
        }
        for (GuardBreach b : result.breaches()) {
            LOG.error("INVARIANT BREACH: the DB stock guard of sale " + b.saleId()
                    + " refused " + (b.requested() - b.stockLeft()) + " of " + b.requested() + " new orders ("
                    + b.stockLeft() + " units left); they go to the dead-letter topic as STOCK_GUARD."
                    + " Redis and the DB disagree about this sale: check its stats and reconcile it.");
        }
        try {
            deadLetters.publish(letters);
        } catch (DeadLetterException e) {
            throw new BatchFailedException(e.getMessage(), e);
        }
        for (DeadLetter letter : letters) {
            metrics.deadLettered(letter.reason());
            LOG.warn("dead-lettered " + letter.origin().topic() + "-"
                    + letter.origin().partition() + "@" + letter.origin().offset() + ": " + letter.reason()
                    + " (" + letter.detail() + ")");
        }
    }

    private BatchResult write(List<OrderEvent> events, List<String> requestIds) {
        if (events.isEmpty()) {
            return BatchResult.EMPTY;
        }
        long start = System.nanoTime();
        try {
            BatchResult result = store.write(events, requestIds);
            metrics.transaction(Duration.ofNanos(System.nanoTime() - start), true);
            metrics.written(result);
            return result;
        } catch (SQLException e) {
            metrics.transaction(Duration.ofNanos(System.nanoTime() - start), false);
            throw new BatchFailedException("failed to write " + events.size() + " orders: " + e.getMessage(), e);
        }
    }
}
