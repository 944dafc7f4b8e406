package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;
import dev.seckill.writer.consume.Backoff;
import dev.seckill.writer.observe.WriterMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Publishes the outbox's order events to Kafka, on one thread: in one transaction, take the relay lock (another
 * instance holding it publishes instead: stand by), read the oldest pending events, send the oldest of each order
 * ({@link RelayBatch}) and wait for every ack, delete those, commit; repeat at once while events are left, else after
 * the poll interval.
 *
 * <p>At least once, in order per order: a row is deleted only after its ack, so a crash, a failed send or a lost
 * lock leaves it to be published again (the next batch of this or another instance starts with it); and an order's
 * next event is sent only by a later batch, after this one's acks. A failing batch (database or Kafka) is rolled back
 * and retried after a bounded exponential backoff, logged when the failures start and when they end.
 */
public final class OutboxRelay implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);

    /** What one batch did: events published (0 when standing by), and whether more are waiting. */
    record Outcome(boolean standby, int published, boolean more) {
    }

    private final Outbox outbox;
    private final EventSender sender;
    private final int batch;
    private final Duration poll;
    private final Backoff backoff;
    private final WriterMetrics metrics;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Thread thread;

    public OutboxRelay(Outbox outbox, EventSender sender, int batch, Duration poll, Backoff backoff,
                       WriterMetrics metrics) {
        this.outbox = outbox;
        this.sender = sender;
        this.batch = batch;
        this.poll = poll;
        this.backoff = backoff;
        this.metrics = metrics;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        boolean failing = false;
        try {
            while (running) {
                Duration wait;
                try {
                    Outcome o = relayOnce();
                    if (failing) {
                        LOG.info("order events relayed again");
                        failing = false;
                    }
                    backoff.reset();
                    wait = o.more() ? Duration.ZERO : poll;
                } catch (SQLException | EventSender.SendFailedException e) {
                    metrics.relayFailed();
                    wait = backoff.next();
                    if (!failing) {
                        LOG.warn("failed to relay order events (retrying, every "
                                + wait.toMillis() + " ms at first; nothing is lost, the events stay in the outbox): "
                                + e.getMessage(), e);
                        failing = true;
                    }
                }
                if (wait.isPositive()) {
                    Thread.sleep(wait);
                }
            }
        } catch (InterruptedException e) {
            // shutdown(): a batch in flight was rolled back; its events are published again by the next relay.
        } catch (RuntimeException e) {
            // A bug (an outbox row the code cannot read): stop; health turns DOWN so the process is restarted, and
            // the other instances' relays publish meanwhile. The rows stay in the outbox.
            LOG.error("failed to relay order events, the relay stops: " + e, e);
        } finally {
            stopped.countDown();
        }
    }

    /** One batch, in one transaction. */
    Outcome relayOnce() throws SQLException, InterruptedException {
        try (Outbox.Batch tx = outbox.begin()) {
            if (!tx.lock()) {
                return new Outcome(true, 0, false);
            }
            List<PendingEvent> pending = tx.pending(batch);
            if (pending.isEmpty()) {
                return new Outcome(false, 0, false);
            }
            List<PendingEvent> next = RelayBatch.next(pending);
            List<OrderStateEvent> events = next.stream().map(PendingEvent::event).toList();
            sender.send(events);
            tx.delete(next);
            tx.commit();
            metrics.published(next.size());
            return new Outcome(false, next.size(), pending.size() == batch || next.size() < pending.size());
        }
    }

    /** Asks the relay to stop and interrupts a batch in flight (it is rolled back). */
    public void shutdown() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    /** The relay's thread has not ended (it keeps running through outages; only a bug or shutdown ends it). */
    public boolean alive() {
        return stopped.getCount() > 0;
    }

    public boolean awaitStop(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
