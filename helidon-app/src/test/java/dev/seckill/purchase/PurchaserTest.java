package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.OrderKept;
import dev.seckill.http.Deadline;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;
import dev.seckill.testkit.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The purchase path without a stack: a fake reserver, Kafka's MockProducer and a fixed clock. */
class PurchaserTest {

    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private static final Sale SALE = new Sale(7, "phone", 1999, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600));
    private static final User BUYER = new User(42);
    private static final String REQUEST_ID = "req-7f3a";

    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final FakeReserver reserver = new FakeReserver();
    private final FakeLedger ledger = new FakeLedger();
    private final SoldOutFlags flags = new SoldOutFlags(clock, 1000);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final UnsentSales unsentSales = new UnsentSales();

    private Purchaser purchaser(MockProducer<String, byte[]> producer) {
        return new Purchaser(reserver, ledger, new OrderPublisher(producer, OrderEvent.TOPIC, new DeliveryTimeout(Duration.ofSeconds(5))),
                new OrderIds(clock, 1), flags, new Reopener(flags, new EdgeFlags("", registry)), new PurchaseMetrics(registry),
                unsentSales, clock);
    }

    private static MockProducer<String, byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    }

    @Test
    void aReservedUnitIsQueuedOnlyWithItsEventInKafkaKeyedBySale() {
        MockProducer<String, byte[]> producer = producer(true);
        PurchaseOutcome.Queued queued = assertInstanceOf(PurchaseOutcome.Queued.class, purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertEquals(1, sent.size());
        assertEquals("7", sent.get(0).key());
        OrderEvent event = OrderEvent.fromJson(sent.get(0).value());
        assertEquals(new OrderEvent(queued.orderId(), 7, 42, 1999, NOW.toEpochMilli(), OrderEvent.VERSION), event);
        assertTrue(ledger.givenBack().isEmpty());
    }

    @Test
    void theEventCarriesThePurchasesRequestIdInItsHeaders() {
        MockProducer<String, byte[]> producer = producer(true);
        purchaser(producer).attempt(SALE, BUYER, REQUEST_ID);
        Header header = producer.history().get(0).headers().lastHeader(OrderEvent.REQUEST_ID_HEADER);
        assertEquals(REQUEST_ID, new String(header.value(), StandardCharsets.UTF_8));
    }

    @Test
    void aSendThatFailsAtOnceKeepsTheUnitForAResendAndIsUnavailable() {
        MockProducer<String, byte[]> producer = producer(true);
        // What send() does when the broker is down past max.block.ms.
        producer.sendException = new KafkaException("no metadata in 2000 ms");
        OrderKept kept = assertThrows(OrderKept.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(ledger.givenBack().isEmpty(), "Kafka may have the order: the unit is not given back");
        assertEquals(1, ledger.unsent().size(), "the failed send is recorded for a resend");
        assertEquals(Long.toString(ledger.unsent().get(0)), kept.orderId(), "the answer names the held order");
        assertEquals(1, registry.get("seckill.sends.unsent").counter().count());
        assertEquals(List.of(SALE.id()), unsentSales.snapshot(), "the sale is noted for the resender");
    }

    @Test
    void unitsHeldByFailedSendsAreUnavailableAndNoteTheSaleForTheResender() {
        reserver.fail(new UnitsHeld(SALE.id(), 2));
        assertThrows(UnitsHeld.class, () -> purchaser(producer(true)).attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(List.of(SALE.id()), unsentSales.snapshot(), "another instance's held units are resent from here");
        assertTrue(ledger.givenBack().isEmpty());
    }

    @Test
    void anAcknowledgementThatFailsKeepsTheUnitOfExactlyThatOrder() throws Exception {
        MockProducer<String, byte[]> producer = producer(false);
        Purchaser purchaser = purchaser(producer);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            CompletableFuture<PurchaseOutcome> attempt = CompletableFuture.supplyAsync(() -> purchaser.attempt(SALE, BUYER, REQUEST_ID), pool);
            Await.until(Duration.ofSeconds(10), () -> producer.history().size() == 1, "the event to be sent");
            producer.errorNext(new KafkaException("NOT_ENOUGH_REPLICAS"));
            ExecutionException e = assertThrows(ExecutionException.class, attempt::get);
            assertInstanceOf(DependencyUnavailable.class, e.getCause());
        }
        long orderId = OrderEvent.fromJson(producer.history().get(0).value()).orderIdValue();
        assertEquals(List.of(orderId), ledger.unsent(), "the failed order's unit is held for its resend");
        assertTrue(ledger.givenBack().isEmpty());
    }

    @Test
    void theRetryAfterAFailedSendResendsTheSameOrderAndIsQueuedWithItsId() {
        MockProducer<String, byte[]> producer = producer(true);
        Purchaser purchaser = purchaser(producer);
        producer.sendException = new KafkaException("broker down");
        assertThrows(DependencyUnavailable.class, () -> purchaser.attempt(SALE, BUYER, REQUEST_ID));
        long first = ledger.unsent().get(0);
        producer.sendException = null;
        // purchase.lua answers RESEND with the held order's id.
        reserver.answer(new PurchaseOutcome.Queued(Long.toString(first)));
        assertEquals(new PurchaseOutcome.Queued(Long.toString(first)), purchaser.attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(1, producer.history().size());
        assertEquals(new OrderEvent(Long.toString(first), 7, 42, 1999, OrderIds.createdAt(first).toEpochMilli(),
                OrderEvent.VERSION), OrderEvent.fromJson(producer.history().get(0).value()), "the same order, as it was");
        assertEquals(List.of(first), ledger.sent(), "acknowledged: its unsent entry is forgotten");
        assertTrue(ledger.givenBack().isEmpty());
    }

    /**
     * The double fault: the send failed and its record did not stand (Redis failed too, or no replica confirmed
     * it). Nothing promises a resend, so the answer names no order (the plain 503).
     */
    @Test
    void aFailedSendWhoseRecordDidNotStandIsAPlainUnavailableNamingNoOrder() {
        MockProducer<String, byte[]> producer = producer(true);
        producer.sendException = new KafkaException("no metadata in 2000 ms");
        ledger.holds(false);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertFalse(e instanceof OrderKept, "a 503 naming an order that is not held for a resend");
        assertEquals(1, ledger.unsent().size(), "the record was tried");
        assertTrue(ledger.givenBack().isEmpty(), "Kafka may have the order: the unit is not given back");
    }

    @Test
    void aResendThatFailsAgainIsUnavailableAndStillHoldsTheUnit() {
        MockProducer<String, byte[]> producer = producer(true);
        Purchaser purchaser = purchaser(producer);
        producer.sendException = new KafkaException("broker down");
        assertThrows(DependencyUnavailable.class, () -> purchaser.attempt(SALE, BUYER, REQUEST_ID));
        long first = ledger.unsent().get(0);
        reserver.answer(new PurchaseOutcome.Queued(Long.toString(first)));
        assertThrows(DependencyUnavailable.class, () -> purchaser.attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(List.of(first, first), ledger.unsent(), "the same order, still waiting for a send");
        assertTrue(ledger.sent().isEmpty());
        assertTrue(ledger.givenBack().isEmpty());
    }

    @Test
    void aFreshOrderAcknowledgedAtOnceLeavesNoUnsentWork() {
        assertInstanceOf(PurchaseOutcome.Queued.class, purchaser(producer(true)).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(ledger.unsent().isEmpty());
        assertTrue(ledger.sent().isEmpty(), "no Redis call after a first send that succeeded");
    }

    @Test
    void soldOutFromRedisIsAnsweredLocallyAfterwardsWithoutAskingRedis() {
        Purchaser purchaser = purchaser(producer(true));
        reserver.answer(new PurchaseOutcome.SoldOut(false));
        assertEquals(new PurchaseOutcome.SoldOut(false), purchaser.attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(new PurchaseOutcome.SoldOut(true), purchaser.attempt(SALE, new User(43), REQUEST_ID));
        assertEquals(1, reserver.reserveCalls(), "the second buyer never reached the reserver");
    }

    @Test
    void stockComingBackFromZeroAfterAnUnreplicatedReservationReopensTheSaleAtOnce() {
        MockProducer<String, byte[]> producer = producer(true);
        Purchaser purchaser = purchaser(producer);
        // Meanwhile another buyer took the last unit and was told SOLD_OUT.
        reserver.duringReserve(() -> flags.markSoldOut(SALE.id()));
        reserver.fail(new ReservationNotReplicated(SALE.id(), 900, "it reached 0 of the 1 replicas it needs"));
        ledger.remainingAfterUndo(1);
        assertThrows(DependencyUnavailable.class, () -> purchaser.attempt(SALE, BUYER, REQUEST_ID));
        reserver.fail(null);
        reserver.duringReserve(() -> { });
        assertInstanceOf(PurchaseOutcome.Queued.class, purchaser.attempt(SALE, new User(43), REQUEST_ID),
                "the unit given back is on sale again, not hidden behind the local flag");
    }

    @Test
    void aReservationItsReplicasDidNotConfirmIsGivenBackUnpublishedAndCounted() {
        MockProducer<String, byte[]> producer = producer(true);
        reserver.fail(new ReservationNotReplicated(SALE.id(), 900, "it reached 0 of the 1 replicas it needs"));
        // Unavailable, so the buyer is told to retry (503 with Retry-After), never 202 on a unit only the master has.
        assertThrows(DependencyUnavailable.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(1, ledger.givenBack().size(), "the unit is given back");
        assertTrue(producer.history().isEmpty(), "no order for it");
        assertEquals(1, registry.get("seckill.reservations.unreplicated").counter().count());
    }

    /**
     * The master died between the reservation and its confirmation, and took the give-back with it: the mark may
     * have reached the replica that is promoted, where a retry would find it and name the order. The unit is kept
     * for the resender, never left for reconcile to release behind that answer.
     */
    @Test
    void anUnconfirmedReservationThatCannotBeGivenBackIsNotedForTheResender() {
        MockProducer<String, byte[]> producer = producer(true);
        reserver.fail(new ReservationNotReplicated(SALE.id(), 900, "its confirmation failed: connection reset"));
        ledger.down(true);
        assertThrows(DependencyUnavailable.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(producer.history().isEmpty(), "no order sent on a reservation no replica confirmed");
        assertEquals(1, unsentSales.unrecorded().size(), "kept for the resender: " + unsentSales.unrecorded());
        assertEquals(BUYER.id(), unsentSales.unrecorded().getFirst().userId());
    }

    @Test
    void aFailedSendWhoseRecordFailedTooIsNotedForTheResender() {
        MockProducer<String, byte[]> producer = producer(true);
        producer.sendException = new KafkaException("no metadata in 2000 ms");
        ledger.down(true);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertFalse(e instanceof OrderKept, "a 503 naming an order no record holds");
        assertEquals(1, unsentSales.unrecorded().size(), "kept for the resender: " + unsentSales.unrecorded());
    }

    @Test
    void aReservationWhoseAnswerAndQuestionWereBothLostIsNotedForTheResender() {
        reserver.fail(new ReservationUnknown("failed to run purchase.lua for sale 7, and confirm.lua",
                new RuntimeException("timeout")));
        assertThrows(ReservationUnknown.class, () -> purchaser(producer(true)).attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(1, unsentSales.unrecorded().size(), "kept for the resender: " + unsentSales.unrecorded());
        assertTrue(ledger.givenBack().isEmpty(), "nothing is given back on a guess");
    }

    @Test
    void aFailureThatReservedNothingNotesNothing() {
        reserver.fail(new DependencyUnavailable("the Redis keys of sale 7 are missing"));
        assertThrows(DependencyUnavailable.class, () -> purchaser(producer(true)).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(unsentSales.unrecorded().isEmpty(), "noted: " + unsentSales.unrecorded());
    }

    /**
     * Kafka has not acknowledged the send when the purchase's deadline comes near: it is answered like a failed send
     * (503 naming the order, its unit kept and recorded for a resend), in time, while the send goes on.
     */
    @Test
    void aSendNotAcknowledgedBeforeTheDeadlineIsAnsweredAsKeptInTime() {
        MockProducer<String, byte[]> producer = producer(false);
        OrderKept kept = assertThrows(OrderKept.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID,
                Deadline.in(Purchaser.RECORD_TIME.plusMillis(50))));
        assertEquals(List.of(Long.parseLong(kept.orderId())), ledger.unsent(), "recorded for a resend");
        assertEquals(1, producer.history().size(), "the send was made and goes on");
        assertTrue(ledger.givenBack().isEmpty(), "Kafka may still write it: the unit is kept");
    }

    @Test
    void missingSaleKeysAreUnavailableAndNothingIsPublished() {
        MockProducer<String, byte[]> producer = producer(true);
        reserver.fail(new DependencyUnavailable("the Redis keys of sale 7 are missing"));
        assertThrows(DependencyUnavailable.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(producer.history().isEmpty());
        assertTrue(ledger.givenBack().isEmpty(), "nothing was taken, so nothing is given back");
    }

    @Test
    void outcomesOtherThanQueuedPublishNothing() {
        MockProducer<String, byte[]> producer = producer(true);
        Purchaser purchaser = purchaser(producer);
        for (PurchaseOutcome o : List.of(new PurchaseOutcome.SaleEnded(),
                new PurchaseOutcome.NotStarted(SALE.startsAt(), 1000), new PurchaseOutcome.RateLimited(500))) {
            reserver.answer(o);
            assertEquals(o, purchaser.attempt(SALE, BUYER, REQUEST_ID));
        }
        assertTrue(producer.history().isEmpty());
    }

    /**
     * The service killed after purchase.lua, before Kafka's ack, left a mark no record speaks for: the buyer's retry
     * (on another instance) hears ALREADY_PURCHASED naming it only once the order is in Kafka, so reconcile cannot
     * release it behind that answer. Nothing is written to Redis for it: the sale's units never look held.
     */
    @Test
    void anAlreadyPurchasedOrderIsSentAgainBeforeItIsNamed() {
        MockProducer<String, byte[]> producer = producer(true);
        long earlier = new OrderIds(Clock.fixed(NOW.minusSeconds(40), ZoneOffset.UTC), 2).next();
        reserver.answer(new PurchaseOutcome.AlreadyPurchased(Long.toString(earlier)));
        assertEquals(new PurchaseOutcome.AlreadyPurchased(Long.toString(earlier)),
                purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertEquals(1, producer.history().size());
        assertEquals(new OrderEvent(Long.toString(earlier), 7, 42, 1999, OrderIds.createdAt(earlier).toEpochMilli(),
                OrderEvent.VERSION), OrderEvent.fromJson(producer.history().get(0).value()), "the order as it was");
        assertTrue(ledger.unsent().isEmpty(), "an unsent entry would make the sale's units look held");
        assertTrue(ledger.sent().isEmpty());
    }

    @Test
    void anAlreadyPurchasedOrderWhoseSendFailsIsKeptAndNamedBy503() {
        MockProducer<String, byte[]> producer = producer(true);
        producer.sendException = new KafkaException("broker down");
        reserver.answer(new PurchaseOutcome.AlreadyPurchased("5"));
        OrderKept kept = assertThrows(OrderKept.class, () -> purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertEquals("5", kept.orderId());
        assertEquals(List.of(5L), ledger.unsent(), "kept for the resender, like any failed send");
        assertTrue(ledger.sent().isEmpty());
    }

    /** A second click while the first is in flight: its order is the first purchase's to send, and nothing is held. */
    @Test
    void anAlreadyPurchasedOrderYoungerThanASecondIsNamedAsItIs() {
        MockProducer<String, byte[]> producer = producer(true);
        long fresh = new OrderIds(Clock.fixed(NOW.minusMillis(500), ZoneOffset.UTC), 2).next();
        reserver.answer(new PurchaseOutcome.AlreadyPurchased(Long.toString(fresh)));
        assertEquals(new PurchaseOutcome.AlreadyPurchased(Long.toString(fresh)),
                purchaser(producer).attempt(SALE, BUYER, REQUEST_ID));
        assertTrue(ledger.unsent().isEmpty());
        assertTrue(producer.history().isEmpty());
    }
}
