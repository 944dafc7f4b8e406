package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.sale.Sale;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The resender without a stack: an unsent hash in a map, a fake ledger, Kafka's MockProducer, a fixed clock. */
class ResenderTest {

    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Sale SALE = new Sale(7, "phone", 1999, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600));
    private static final long ORDER = new OrderIds(Clock.fixed(NOW.minusSeconds(5), ZoneOffset.UTC), 1).next();

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final FakeLedger ledger = new FakeLedger();
    private final UnsentSales sales = new UnsentSales();
    private final Map<Long, String> held = new ConcurrentHashMap<>();
    private final MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
            new ByteArraySerializer());

    private Resender resender() {
        return new Resender(sales, sale -> sale == SALE.id() ? Map.copyOf(held) : Map.of(),
                sale -> sale == SALE.id() ? Optional.of(SALE) : Optional.empty(), ledger,
                new OrderPublisher(producer, OrderEvent.TOPIC, new DeliveryTimeout(Duration.ofSeconds(5))), clock,
                Duration.ofSeconds(1));
    }

    @Test
    void anEntryWhoseLastSendIsDueIsClaimedSentAsItWasAndForgotten() {
        sales.add(SALE.id());
        held.put(42L, ORDER + ":" + NOW.minusSeconds(2).toEpochMilli());
        assertEquals(1, resender().resendDue());
        assertEquals(List.of(ORDER), ledger.unsent(), "claimed (its time stamped) before the send");
        assertEquals(1, producer.history().size());
        assertEquals(new OrderEvent(Long.toString(ORDER), 7, 42, 1999, OrderIds.createdAt(ORDER).toEpochMilli(),
                OrderEvent.VERSION), OrderEvent.fromJson(producer.history().get(0).value()), "the same order, as it was");
        assertEquals(List.of(ORDER), ledger.sent(), "acknowledged: forgotten");
    }

    @Test
    void aReservationNoRecordSpeaksForIsRecordedStampedNowOnceRedisAnswers() {
        sales.unrecorded(SALE.id(), 42, ORDER);
        ledger.down(true);
        assertEquals(0, resender().resendDue());
        assertEquals(List.of(new UnsentSales.Unrecorded(SALE.id(), 42, ORDER)), sales.unrecorded(),
                "kept while Redis fails");
        ledger.down(false);
        resender().resendDue();
        assertEquals(List.of(ORDER), ledger.unsent(), "recorded as unsent");
        assertTrue(sales.unrecorded().isEmpty(), "recorded once: " + sales.unrecorded());
    }

    @Test
    void anEntryWhoseSendBeganLessThanTheDelayAgoWaits() {
        sales.add(SALE.id());
        held.put(42L, ORDER + ":" + NOW.minusMillis(500).toEpochMilli());
        assertEquals(0, resender().resendDue());
        assertTrue(ledger.unsent().isEmpty());
        assertTrue(producer.history().isEmpty());
        assertEquals(List.of(SALE.id()), sales.snapshot(), "still tracked for the next pass");
    }

    @Test
    void anEntryReleasedMeanwhileIsNotSent() {
        sales.add(SALE.id());
        held.put(42L, ORDER + ":" + NOW.minusSeconds(2).toEpochMilli());
        ledger.holds(false);
        assertEquals(0, resender().resendDue());
        assertTrue(producer.history().isEmpty(), "the unit went back: sending now could sell it twice");
    }

    @Test
    void aSendThatFailsAgainLeavesTheEntryForTheNextPass() {
        sales.add(SALE.id());
        held.put(42L, ORDER + ":" + NOW.minusSeconds(2).toEpochMilli());
        producer.sendException = new KafkaException("broker down");
        assertEquals(0, resender().resendDue());
        assertTrue(ledger.sent().isEmpty(), "not forgotten");
        assertEquals(List.of(SALE.id()), sales.snapshot());
    }

    @Test
    void aSaleWithNothingHeldIsNoLongerTracked() {
        sales.add(SALE.id());
        assertEquals(0, resender().resendDue());
        assertTrue(sales.snapshot().isEmpty());
    }
}
