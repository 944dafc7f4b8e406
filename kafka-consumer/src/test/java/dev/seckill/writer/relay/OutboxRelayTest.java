package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.Await;
import dev.seckill.writer.consume.Backoff;
import dev.seckill.writer.observe.WriterMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.seckill.event.OrderStateEvent.Type.CONFIRMED;
import static dev.seckill.event.OrderStateEvent.Type.EXPIRED;
import static dev.seckill.event.OrderStateEvent.Type.PAID;
import static dev.seckill.event.OrderStateEvent.Type.UNIT_RETURNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutboxRelayTest {

    private final FakeOutbox outbox = new FakeOutbox();
    /** What reached Kafka (acknowledged or not), in send order. */
    private final List<OrderStateEvent> sent = new ArrayList<>();
    private int failNext;
    private final EventSender sender = events -> {
        sent.addAll(events);
        if (failNext > 0) {
            failNext--;
            throw new EventSender.SendFailedException("not acknowledged", null);
        }
    };
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OutboxRelay relay = new OutboxRelay(outbox, sender, 100, Duration.ofMillis(200),
            new Backoff(Duration.ofMillis(10), Duration.ofMillis(100)), new WriterMetrics(registry));

    private double counted(String meter) {
        return registry.get(meter).counter().count();
    }

    private List<String> sentIds() {
        return sent.stream().map(OrderStateEvent::eventId).toList();
    }

    @Test
    void anOrdersEventsArePublishedInOutboxOrderEachAfterTheOneBeforeWasAcknowledged() throws Exception {
        outbox.add(CONFIRMED, 1);
        outbox.add(CONFIRMED, 2);
        outbox.add(PAID, 1);
        outbox.add(EXPIRED, 2);
        outbox.add(UNIT_RETURNED, 2);

        OutboxRelay.Outcome first = relay.relayOnce();
        assertEquals(2, first.published());
        assertTrue(first.more(), "the orders' later events are left for the next batch");
        assertEquals(List.of("1:CONFIRMED", "2:CONFIRMED"), sentIds());
        relay.relayOnce();
        relay.relayOnce();
        OutboxRelay.Outcome last = relay.relayOnce();
        assertEquals(0, last.published());
        assertFalse(last.more());
        assertEquals(List.of("1:CONFIRMED", "2:CONFIRMED", "1:PAID", "2:EXPIRED", "2:UNIT_RETURNED"), sentIds());
        assertEquals(List.of(), outbox.rows, "each event is deleted once acknowledged");
        assertEquals(5.0, registry.get("seckill.writer.events.published").counter().count());
    }

    @Test
    void aBatchKafkaDidNotAcknowledgeStaysInTheOutboxAndIsPublishedAgainFirst() throws Exception {
        outbox.add(CONFIRMED, 1);
        outbox.add(PAID, 1);
        failNext = 1;

        assertThrows(EventSender.SendFailedException.class, relay::relayOnce);
        assertEquals(2, outbox.rows.size(), "nothing deleted");
        relay.relayOnce();
        relay.relayOnce();
        // At least once: the first event twice, and never the second one before it.
        assertEquals(List.of("1:CONFIRMED", "1:CONFIRMED", "1:PAID"), sentIds());
        assertEquals(List.of(), outbox.rows);
    }

    @Test
    void whileAnotherRelayHoldsTheLockThisOneStandsByAndSendsNothing() throws Exception {
        outbox.add(CONFIRMED, 1);
        outbox.lockedElsewhere = true;

        OutboxRelay.Outcome o = relay.relayOnce();
        assertTrue(o.standby());
        assertEquals(List.of(), sent);
        assertEquals(1, outbox.rows.size());

        outbox.lockedElsewhere = false;
        assertEquals(1, relay.relayOnce().published(), "it takes over once the lock is free");
    }

    @Test
    void theLoopRetriesThroughADatabaseOutageAndStopsOnShutdown() throws Exception {
        outbox.add(CONFIRMED, 1);
        outbox.down = true;
        Thread t = Thread.ofPlatform().start(relay);
        Await.until(Duration.ofSeconds(10), () -> counted("seckill.writer.events.relay.failures") >= 2,
                "the relay to fail and retry");
        outbox.down = false;
        Await.until(Duration.ofSeconds(10), () -> counted("seckill.writer.events.published") == 1,
                "the relay to publish once the DB is back");
        relay.shutdown();
        assertTrue(relay.awaitStop(Duration.ofSeconds(5)), "stopped");
        t.join();
        assertEquals(List.of("1:CONFIRMED"), sentIds());
    }

    @Test
    void aBugStopsTheRelayAndItCountsAsDeadWithTheEventsKept() throws Exception {
        outbox.add(CONFIRMED, 1);
        OutboxRelay broken = new OutboxRelay(outbox, events -> {
            throw new IllegalStateException("a bug");
        }, 100, Duration.ofMillis(200), new Backoff(Duration.ofMillis(10), Duration.ofMillis(100)),
                new WriterMetrics(new SimpleMeterRegistry()));
        assertTrue(broken.alive());
        Thread.ofPlatform().start(broken).join(Duration.ofSeconds(10));
        assertFalse(broken.alive(), "health turns DOWN");
        assertEquals(1, outbox.rows.size(), "the event stays in the outbox");
    }

    @Test
    void aDatabaseFailureBeforeTheSendPublishesNothing() {
        outbox.add(CONFIRMED, 1);
        outbox.down = true;
        assertThrows(SQLException.class, relay::relayOnce);
        assertEquals(List.of(), sent);
    }
}
