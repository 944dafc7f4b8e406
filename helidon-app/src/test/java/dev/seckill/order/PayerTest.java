package dev.seckill.order;

import dev.seckill.sale.FakeSales;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** Paying without HTTP: the charge, the database's decision, the refund of a charge that lost. */
class PayerTest {

    private static final Instant NOW = Instant.parse("2030-01-01T10:00:00Z");
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final FakePayments db = new FakePayments(clock);
    private final FakeProvider provider = new FakeProvider();
    private final Map<String, String> marks = new ConcurrentHashMap<>();
    private final QueuedOrders.BuyerMarks byMark = (s, u) -> Optional.ofNullable(marks.get(s + ":" + u));
    private final OrderLookup lookup = new OrderLookup(db, new QueuedOrders(new FakeSales().add(
            new Sale(1, "phone", 1999, 10, NOW.minusSeconds(60), NOW.plusSeconds(3600))), byMark, clock), byMark);
    private final Payer payer = new Payer(lookup, db, provider, clock);

    @Test
    void aConfirmedOrderWithinItsWindowIsChargedOnceAndPaid() {
        db.confirmed(5, 1, 7, 60);
        PayOutcome.Paid paid = assertInstanceOf(PayOutcome.Paid.class, payer.pay(5, 7, "key-1", "req-1"));
        assertEquals(OrderState.PAID, paid.order().state());
        assertEquals(NOW, paid.order().paidAt());
        assertEquals("key-1", db.payments.get(5L).idempotencyKey());
        assertEquals(1, provider.charges.size());
        assertEquals(1999, provider.charges.get(0).amountCents());
        assertEquals("req-1", db.paidBy.get(5L), "the pay's request id goes with the PAID event");
    }

    @Test
    void aRepeatAnswersTheSamePaymentWithoutChargingAgain() {
        db.confirmed(5, 1, 7, 60);
        PayOutcome first = payer.pay(5, 7, "key-1", "req-1");
        assertEquals(first, payer.pay(5, 7, "key-1", "req-1"));
        assertEquals(first, payer.pay(5, 7, "another-key", "req-1"), "a paid order is paid, whatever the key");
        assertEquals(1, provider.charges.size());
        assertEquals(List.of(), provider.refunds);
    }

    @Test
    void anOrderPastPayByIsExpiredWithoutACharge() {
        db.confirmed(5, 1, 7, -1);
        assertInstanceOf(PayOutcome.Expired.class, payer.pay(5, 7, "k", "req-1"));
        db.expire(5);
        assertInstanceOf(PayOutcome.Expired.class, payer.pay(5, 7, "k", "req-1"));
        assertEquals(List.of(), provider.charges);
    }

    @Test
    void whenTheExpiryWinsTheRaceTheChargeIsRefundedAndTheAnswerIsExpired() {
        db.confirmed(5, 1, 7, 60);
        db.beforeDecision = () -> db.expire(5);
        assertInstanceOf(PayOutcome.Expired.class, payer.pay(5, 7, "k", "req-1"));
        assertEquals(1, provider.refunds.size());
        assertEquals(OrderState.EXPIRED, db.orders.get(5L).state());
        assertEquals(Map.of(), db.payments);
    }

    @Test
    void whenAnotherRequestPaidFirstOurChargeIsRefundedAndTheirPaymentIsTheAnswer() {
        db.confirmed(5, 1, 7, 60);
        PaymentRecord theirs = new PaymentRecord("tab-2", "local", "local-5-other", 1999);
        db.beforeDecision = () -> {
            db.beforeDecision = () -> { };
            db.recordPaid(db.orders.get(5L), theirs, "req-2");
        };
        PayOutcome.Paid paid = assertInstanceOf(PayOutcome.Paid.class, payer.pay(5, 7, "tab-1", "req-1"));
        assertEquals(theirs, paid.payment());
        assertEquals(1, provider.refunds.size(), "our charge went back");
    }

    @Test
    void theSameKeyRacingItselfIsOneChargeAndNeverRefunded() {
        db.confirmed(5, 1, 7, 60);
        db.beforeDecision = () -> {
            db.beforeDecision = () -> { };
            assertInstanceOf(PayOutcome.Paid.class, payer.pay(5, 7, "same", "req-1"));
        };
        assertInstanceOf(PayOutcome.Paid.class, payer.pay(5, 7, "same", "req-1"));
        assertEquals(List.of(), provider.refunds, "both requests hold the very charge that paid");
    }

    @Test
    void aDeclinedChargeLeavesTheOrderPayable() {
        db.confirmed(5, 1, 7, 60);
        provider.decline = true;
        assertInstanceOf(PayOutcome.Declined.class, payer.pay(5, 7, "k", "req-1"));
        assertEquals(OrderState.CONFIRMED, db.orders.get(5L).state());
        provider.decline = false;
        assertInstanceOf(PayOutcome.Paid.class, payer.pay(5, 7, "k2", "req-1"));
    }

    @Test
    void anotherUsersOrderIsNotFoundAndAReservationIsNotConfirmed() {
        db.confirmed(5, 1, 7, 60);
        assertInstanceOf(PayOutcome.NotFound.class, payer.pay(5, 8, "k", "req-1"));
        assertInstanceOf(PayOutcome.NotFound.class, payer.pay(6, 7, "k", "req-1"));
        marks.put("1:7", "6");
        assertInstanceOf(PayOutcome.NotConfirmed.class, payer.pay(6, 7, "k", "req-1"), "reserved, no row yet");
        assertInstanceOf(PayOutcome.NotFound.class, payer.pay(6, 8, "k", "req-1"));
        assertEquals(List.of(), provider.charges);
    }
}
