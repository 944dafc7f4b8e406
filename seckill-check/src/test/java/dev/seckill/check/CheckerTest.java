package dev.seckill.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.seckill.check.Violation.Kind.ANSWER_MISMATCH;
import static dev.seckill.check.Violation.Kind.CONSERVATION;
import static dev.seckill.check.Violation.Kind.CONTRACT;
import static dev.seckill.check.Violation.Kind.LOST_ORDER;
import static dev.seckill.check.Violation.Kind.OVERSELL;
import static dev.seckill.check.Violation.Kind.PAID_AND_EXPIRED;
import static dev.seckill.check.Violation.Kind.PAYMENT_MISMATCH;
import static dev.seckill.check.Violation.Kind.ROW_WITHOUT_ANSWER;
import static dev.seckill.check.Violation.Kind.SALE_MISSING;
import static dev.seckill.check.Violation.Kind.SECOND_ORDER;
import static dev.seckill.check.Violation.Kind.SOLD_OUT_WITH_STOCK;
import static dev.seckill.check.Violation.Kind.UNIT_NOT_RETURNED;
import static dev.seckill.check.Violation.Kind.UNIT_RETURNED_TWICE;
import static dev.seckill.check.SaleFixture.SALE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckerTest {

    /**
     * Four units: two bought and left unpaid, one paid, one lapsed (its unit back on sale); one left. Refusals of each
     * kind, a 503 and a silence that held nothing.
     */
    private static SaleFixture soundSale() {
        SaleFixture s = new SaleFixture(4).bought(11, 101).boughtAndPaid(12, 102).boughtAndLapsed(13, 103)
                .bought(14, 104);
        s.purchase(11, 409, "ALREADY_PURCHASED", 101L);
        s.purchase(13, 409, "ALREADY_PURCHASED", 103L);
        s.purchase(15, 409, "NOT_STARTED", null);
        s.purchase(15, 410, "SOLD_OUT", null);
        s.purchase(15, 429, "RATE_LIMITED", null);
        s.purchase(16, 503, "UNAVAILABLE", null);
        s.purchase(17, 0, null, null);
        s.op(OpKind.PAY, 14, 410, "PAYMENT_WINDOW_CLOSED", 104L);
        return s;
    }

    private static Set<Violation.Kind> kinds(Verdict v) {
        return v.violations().stream().map(Violation::kind).collect(Collectors.toSet());
    }

    @Test
    void aSoundHistoryAndStateGiveNoViolation() {
        SaleFixture s = soundSale();
        Verdict v = Checker.check(s.history(), s.state());
        assertTrue(v.holds(), v.summary());
        assertEquals("no violation", v.summary());
        assertEquals(List.of(), v.exceptions());
        assertEquals(s.history().size(), v.counts().operations());
        assertEquals(4, v.counts().answers().get("PURCHASE 202 QUEUED"));
        assertEquals(1, v.counts().answers().get("PURCHASE 0"));
        assertEquals(1, v.counts().answers().get("PAY 200 PAID"));
        assertEquals(4, v.counts().orders());
    }

    @Test
    void a202WhoseOrderHasNoRowIsALostOrder() {
        SaleFixture s = soundSale();
        Op lost = s.purchase(18, 202, "QUEUED", 108L);
        Verdict v = s.check();
        assertEquals(Set.of(LOST_ORDER), kinds(v), v.summary());
        Violation only = v.violations().getFirst();
        assertEquals(SALE, only.saleId());
        assertEquals(18L, only.userId());
        assertEquals("108", only.orderId());
        assertEquals(List.of(lost.requestId()), only.requestIds());
        assertTrue(v.summary().startsWith("LOST_ORDER sale 7 user 18 order 108"), v.summary());
    }

    @Test
    void a503NamingAnOrderThatHasNoRowIsALostOrder() {
        SaleFixture s = soundSale();
        s.purchase(18, 503, "UNAVAILABLE", 108L);
        assertEquals(Set.of(LOST_ORDER), kinds(s.check()));
    }

    @Test
    void a202NamingAnotherBuyersRowIsALostOrder() {
        SaleFixture s = soundSale();
        s.purchase(18, 202, "QUEUED", 104L);
        Verdict v = s.check();
        assertEquals(Set.of(LOST_ORDER), kinds(v), v.summary());
        assertTrue(v.summary().contains("user 14's"), v.summary());
    }

    @Test
    void aUnitSoldTwiceIsAnOversell() {
        // Two units, three live orders: Redis went to -1, the DB stock stayed at 0 (its CHECK).
        SaleFixture s = new SaleFixture(2).bought(11, 101).bought(12, 102).bought(13, 103);
        Verdict v = s.check();
        assertEquals(Set.of(OVERSELL), kinds(v), v.summary());
        assertEquals(2, v.violations().size(), "live orders over the stock, and Redis below zero: " + v.summary());
        assertEquals(List.of("r2", "r3", "r4"), v.violations().getFirst().requestIds());
    }

    @Test
    void aSecondRowOfOneBuyerIsASecondOrder() {
        SaleFixture s = soundSale().bought(11, 109);
        Verdict v = s.check();
        assertEquals(Set.of(SECOND_ORDER), kinds(v), v.summary());
        assertEquals(11L, v.violations().getFirst().userId());
    }

    @Test
    void twoOrderIdsGrantedToOneBuyerAreASecondOrderAndTheUnwrittenOneIsLost() {
        SaleFixture s = soundSale();
        s.purchase(11, 202, "QUEUED", 109L);
        Verdict v = s.check();
        assertEquals(Set.of(SECOND_ORDER, LOST_ORDER), kinds(v), v.summary());
    }

    @Test
    void anAlreadyPurchasedNamingAnotherOrderIsAnAnswerMismatch() {
        SaleFixture s = soundSale();
        Op wrong = s.purchase(11, 409, "ALREADY_PURCHASED", 104L);
        Verdict v = s.check();
        assertEquals(Set.of(ANSWER_MISMATCH), kinds(v), v.summary());
        assertEquals(List.of(wrong.requestId()), v.violations().getFirst().requestIds());
        assertEquals("104", v.violations().getFirst().orderId());
    }

    @Test
    void aPayAnswered200WhoseOrderExpiredIsAnAnswerMismatch() {
        SaleFixture s = soundSale();
        Op pay = s.op(OpKind.PAY, 13, 200, "PAID", 103L);
        Verdict v = s.check();
        assertEquals(Set.of(ANSWER_MISMATCH), kinds(v), v.summary());
        assertEquals(List.of(pay.requestId()), v.violations().getFirst().requestIds());
        assertTrue(v.summary().contains("EXPIRED"), v.summary());
    }

    @Test
    void anOrderWithAPaymentThatExpiredIsPaidAndExpired() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 202, "QUEUED", 102L);
        s.row(12, 102, FinalOrder.State.EXPIRED, true);
        Verdict v = s.check();
        assertEquals(Set.of(PAID_AND_EXPIRED), kinds(v), v.summary());
        assertEquals("102", v.violations().getFirst().orderId());
    }

    @Test
    void aPaidOrderWithoutItsPaymentIsAPaymentMismatch() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 202, "QUEUED", 102L);
        s.row(12, 102, FinalOrder.State.PAID, false);
        assertEquals(Set.of(PAYMENT_MISMATCH), kinds(s.check()));
    }

    @Test
    void aUnitTheDatabaseGotBackTwiceIsNamed() {
        // The expiry's transaction counted order 103's unit twice; release.lua, keyed by the order id, once.
        SaleFixture s = soundSale();
        s.dbStockOff = 1;
        Verdict v = s.check();
        assertEquals(Set.of(UNIT_RETURNED_TWICE), kinds(v), v.summary());
    }

    @Test
    void aLiveOrderInTheReturnedSetIsAUnitReturnedTwice() {
        SaleFixture s = soundSale();
        s.returned().add(104L);
        Verdict v = s.check();
        assertEquals(Set.of(UNIT_RETURNED_TWICE), kinds(v), v.summary());
        assertEquals("104", v.violations().getFirst().orderId());
    }

    @Test
    void anExpiredOrderWhoseUnitRedisNeverGotIsNamed() {
        SaleFixture s = soundSale();
        s.returned().remove(103L);
        s.unitReturns().add(103L);
        s.remainingOff = -1;
        Verdict v = s.check();
        assertEquals(Set.of(UNIT_NOT_RETURNED, CONSERVATION), kinds(v), v.summary());
        assertTrue(v.summary().contains("unit_return row is still owed"), v.summary());
    }

    @Test
    void aRedisStockThatDoesNotAddUpBreaksConservation() {
        SaleFixture s = soundSale();
        s.remainingOff = -1;
        Verdict v = s.check();
        assertEquals(Set.of(CONSERVATION), kinds(v), v.summary());
        assertEquals(1, v.violations().size());
    }

    @Test
    void aDatabaseStockTooLowBreaksConservation() {
        SaleFixture s = soundSale();
        s.dbStockOff = -1;
        assertEquals(Set.of(CONSERVATION), kinds(s.check()));
    }

    @Test
    void aBuyerMarkWithoutItsRowBreaksConservation() {
        SaleFixture s = soundSale();
        s.marks().put(18L, 108L);
        s.remainingOff = -1;
        Verdict v = s.check();
        assertEquals(Set.of(CONSERVATION), kinds(v), v.summary());
        assertTrue(v.violations().stream().anyMatch(x -> Long.valueOf(18).equals(x.userId())), v.summary());
    }

    @Test
    void aBuyerMarkNamingAnotherOrderThanItsRowBreaksConservation() {
        SaleFixture s = soundSale();
        s.marks().put(12L, 199L);
        Verdict v = s.check();
        assertEquals(List.of(CONSERVATION), v.violations().stream().map(Violation::kind).toList(), v.summary());
        assertEquals("199", v.violations().getFirst().orderId());
        assertTrue(v.summary().contains("the buyer mark names this order, the user's row is 102"), v.summary());
    }

    @Test
    void aRowWithoutItsBuyerMarkBreaksConservation() {
        SaleFixture s = soundSale();
        s.marks().remove(14L);
        Verdict v = s.check();
        assertEquals(Set.of(CONSERVATION), kinds(v), v.summary());
        assertEquals("104", v.violations().getFirst().orderId());
    }

    @Test
    void anUnsentEntryForTheMarkedOrderIsASendStillOwedNotAViolation() {
        SaleFixture s = soundSale();
        s.unsent().put(11L, "101:1700000000000");
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
    }

    @Test
    void anUnsentEntryNamingAnOrderTheMarkDoesNotBreaksConservation() {
        SaleFixture s = soundSale();
        s.unsent().put(11L, "199:1700000000000");
        Verdict v = s.check();
        assertEquals(Set.of(CONSERVATION), kinds(v), v.summary());
        assertEquals("199", v.violations().getFirst().orderId());
        assertEquals(Long.valueOf(11), v.violations().getFirst().userId());
    }

    @Test
    void keysMissingWithoutTheArchivedMarkAreLost() {
        SaleFixture s = soundSale();
        s.keysGone = true;
        assertEquals(Set.of(CONSERVATION), kinds(s.check()));
    }

    @Test
    void anArchivedSaleIsCheckedInTheDatabaseOnly() {
        SaleFixture s = soundSale();
        s.keysGone = true;
        s.meta().put("archived", "1700000000000");
        assertTrue(s.check().holds(), s.check().summary());
        s.dbStockOff = -1;
        assertEquals(Set.of(CONSERVATION), kinds(s.check()));
    }

    @Test
    void a503WithoutAnOrderIdWhoseOrderWasWrittenIsAnExceptionNotAViolation() {
        SaleFixture s = soundSale();
        Op unavailable = s.purchase(18, 503, "UNAVAILABLE", null);
        s.purchase(18, 409, "ALREADY_PURCHASED", 108L);
        s.row(18, 108, FinalOrder.State.CONFIRMED, false);
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
        assertEquals(1, v.exceptions().size());
        Excused e = v.exceptions().getFirst();
        assertEquals(Excused.Kind.WRITTEN_AFTER_503, e.kind());
        assertEquals("108", e.orderId());
        assertEquals(List.of(unavailable.requestId()), e.requestIds());
        assertEquals(1, v.counts().exceptions().get(Excused.Kind.WRITTEN_AFTER_503));
    }

    @Test
    void anUnansweredPurchaseWhoseOrderWasWrittenIsAnException() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        Op silent = s.purchase(12, 0, null, null);
        s.row(12, 102, FinalOrder.State.CONFIRMED, false);
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
        assertEquals(List.of(Excused.Kind.WRITTEN_AFTER_NO_ANSWER),
                v.exceptions().stream().map(Excused::kind).toList());
        assertEquals(List.of(silent.requestId()), v.exceptions().getFirst().requestIds());
    }

    /** Adds a row of user 12 to {@code s}, which no documented exception covers: it is the one violation. */
    private static Violation rowWithoutAnswer(SaleFixture s) {
        s.row(12, 102, FinalOrder.State.CONFIRMED, false);
        Verdict v = s.check();
        assertEquals(Set.of(ROW_WITHOUT_ANSWER), kinds(v), v.summary());
        assertEquals(List.of(), v.exceptions());
        assertEquals(1, v.violations().size(), v.summary());
        Violation only = v.violations().getFirst();
        assertEquals(12L, only.userId());
        assertEquals("102", only.orderId());
        assertEquals(1, v.counts().violations().get(ROW_WITHOUT_ANSWER));
        return only;
    }

    @Test
    void aRowWhoseBuyerNeverClickedIsARowWithoutAnswer() {
        Violation only = rowWithoutAnswer(new SaleFixture(2).bought(11, 101));
        assertEquals(List.of(), only.requestIds());
        assertTrue(only.detail().endsWith("never clicked"), only.detail());
    }

    @Test
    void aRowWhoseBuyerHeardSoldOutIsARowWithoutAnswer() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        Op soldOut = s.purchase(12, 410, "SOLD_OUT", null);
        Violation only = rowWithoutAnswer(s);
        assertEquals(List.of(soldOut.requestId()), only.requestIds());
        assertTrue(only.detail().endsWith("heard 410 SOLD_OUT"), only.detail());
    }

    @Test
    void aRowWhoseBuyerHeardRateLimitedIsARowWithoutAnswer() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        Op limited = s.purchase(12, 429, "RATE_LIMITED", null);
        Violation only = rowWithoutAnswer(s);
        assertEquals(List.of(limited.requestId()), only.requestIds());
        assertTrue(only.detail().endsWith("heard 429 RATE_LIMITED"), only.detail());
    }

    @Test
    void aLaterAlreadyPurchasedDoesNotExplainARowAfterRefusals() {
        // The retry told the buyer of the order, but nothing before it could have written it.
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 410, "SOLD_OUT", null);
        s.purchase(12, 429, "RATE_LIMITED", null);
        s.purchase(12, 409, "ALREADY_PURCHASED", 102L);
        Violation only = rowWithoutAnswer(s);
        assertEquals(3, only.requestIds().size(), only.line());
        assertTrue(only.detail().contains("a later ALREADY_PURCHASED named it"), only.detail());
    }

    @Test
    void aSilenceOrA503AfterTheAlreadyPurchasedDoesNotExplainTheRow() {
        // Only an attempt before the first answer naming the order can have written it.
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 410, "SOLD_OUT", null);
        s.purchase(12, 409, "ALREADY_PURCHASED", 102L);
        s.purchase(12, 503, "UNAVAILABLE", null);
        s.purchase(12, 0, null, null);
        rowWithoutAnswer(s);
    }

    @Test
    void a503AfterRefusalsStillExplainsTheRow() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 410, "SOLD_OUT", null);
        Op unavailable = s.purchase(12, 503, "UNAVAILABLE", null);
        s.row(12, 102, FinalOrder.State.CONFIRMED, false);
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
        assertEquals(List.of(Excused.Kind.WRITTEN_AFTER_503), v.exceptions().stream().map(Excused::kind).toList());
        assertEquals(List.of(unavailable.requestId()), v.exceptions().getFirst().requestIds());
    }

    @Test
    void aSoldOutWhileUnitsWereLeftIsNamed() {
        // Two units, one sold: a 410 with nothing undecided refused a buyer while a unit was left.
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        Op lie = s.purchase(12, 410, "SOLD_OUT", null);
        Verdict v = s.check();
        assertEquals(Set.of(SOLD_OUT_WITH_STOCK), kinds(v), v.summary());
        Violation only = v.violations().getFirst();
        assertEquals(12L, only.userId());
        assertEquals(List.of(lie.requestId()), only.requestIds());
        assertTrue(only.detail().startsWith("answered 410 SOLD_OUT while at least 1 of 2 units were left"),
                only.detail());
    }

    @Test
    void aLostOrdersUnitCountsAsTakenSoTheSoldOutAfterItIsNotNamed() {
        // Two units: one row, and one 202 whose order the writer lost. The 410 after both is honest; the loss is
        // the finding, once.
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 202, "QUEUED", 102L);
        s.purchase(13, 410, "SOLD_OUT", null);
        Verdict v = s.check();
        assertTrue(kinds(v).contains(LOST_ORDER), v.summary());
        assertFalse(kinds(v).contains(SOLD_OUT_WITH_STOCK), v.summary());
    }

    @Test
    void aSoldOutBeforeTheLastUnitsOrderWasMintedIsNamedAndOneAfterItIsNot() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        Op early = s.purchase(13, 410, "SOLD_OUT", null);
        s.pass(5_000);
        long last = s.idIn(0);
        s.purchase(12, 202, "QUEUED", last);
        s.row(12, last, FinalOrder.State.CONFIRMED, false);
        s.purchase(14, 410, "SOLD_OUT", null);
        Verdict v = s.check();
        assertEquals(Set.of(SOLD_OUT_WITH_STOCK), kinds(v), v.summary());
        assertEquals(1, v.violations().size(), v.summary());
        assertEquals(List.of(early.requestId()), v.violations().getFirst().requestIds());
    }

    @Test
    void aSoldOutWhileAPurchaseWasUndecidedIsNotNamed() {
        // The 503 or the silence may have held the last unit for a moment (given back since): the 410 may be honest.
        for (int status : new int[] {503, 0}) {
            SaleFixture s = new SaleFixture(2).bought(11, 101);
            s.purchase(12, status, status == 0 ? null : "UNAVAILABLE", null);
            s.purchase(13, 410, "SOLD_OUT", null);
            Verdict v = s.check();
            assertTrue(v.holds(), status + ": " + v.summary());
        }
    }

    @Test
    void aSoldOutAfterAnExpiredOrdersUnitCameBackIsNotNamed() {
        // The sale sold out, then a lapsed order gave its unit back: a sold-out flag may still answer 410 a while.
        SaleFixture s = new SaleFixture(2).bought(11, 101).boughtAndLapsed(12, 102);
        s.purchase(13, 410, "SOLD_OUT", null);
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
    }

    @Test
    void aSaleEndedIsNotHeldAgainstTheStock() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 410, "SALE_ENDED", null);
        assertTrue(s.check().holds(), s.check().summary());
    }

    @Test
    void operationsOfASaleTheStateDidNotReadAreNamed() {
        SaleFixture s = soundSale();
        Op other = new Op(99, OpKind.PURCHASE, "r99", 8, 11, 0, 1, 2, 202, "QUEUED", "801", "service-2", null);
        List<Op> history = new java.util.ArrayList<>(s.history());
        history.add(other);
        Verdict v = Checker.check(history, s.state());
        assertEquals(Set.of(SALE_MISSING), kinds(v), v.summary());
        assertEquals(8, v.violations().getFirst().saleId());
        assertEquals(List.of("r99"), v.violations().getFirst().requestIds());
    }

    @Test
    void anAnswerTheDocumentDoesNotDescribeIsNamed() {
        SaleFixture s = soundSale();
        Op html = new Op(99, OpKind.PURCHASE, "r99", SALE, 18, 0, 1, 2, 502, null, null, "lb",
                "POST /api/sales/7/purchase -> 502: status 502 is not in the operation's responses");
        List<Op> history = new java.util.ArrayList<>(s.history());
        history.add(html);
        Verdict v = Checker.check(history, s.state());
        assertEquals(Set.of(CONTRACT), kinds(v), v.summary());
        assertEquals(List.of("r99"), v.violations().getFirst().requestIds());
        assertTrue(v.violations().getFirst().detail().contains("502"), v.summary());
    }

    @Test
    void aSoundSaleWithBothDocumentedExceptionsHoldsAndItsSummarySaysSo() {
        SaleFixture s = new SaleFixture(6).bought(11, 101).boughtAndPaid(12, 102).boughtAndLapsed(13, 103)
                .bought(14, 104);
        s.purchase(15, 410, "SOLD_OUT", null);
        s.purchase(16, 503, "UNAVAILABLE", null);
        s.purchase(17, 0, null, null);
        s.purchase(18, 503, "UNAVAILABLE", null);
        s.purchase(18, 409, "ALREADY_PURCHASED", 108L);
        s.row(18, 108, FinalOrder.State.CONFIRMED, false);
        s.purchase(19, 0, null, null);
        s.row(19, 109, FinalOrder.State.CONFIRMED, false);
        SaleSummary sale = s.check().sale(SALE);
        assertTrue(sale.holds() && sale.ok(), sale.summary());
        assertEquals(List.of(Excused.Kind.WRITTEN_AFTER_503, Excused.Kind.WRITTEN_AFTER_NO_ANSWER),
                sale.exceptions().stream().map(Excused::kind).toList());
        assertEquals(6, sale.dbOrders());
        assertEquals(5, sale.liveOrders());
        assertEquals(1, sale.paid());
        assertEquals(1, sale.expired());
        assertEquals(1, sale.redisReturned());
        assertEquals(4, sale.accepted());
        assertEquals(6, sale.distinctBuyers());
        assertEquals(0, sale.lost());
        assertEquals(1L, sale.redisRemaining());
        assertTrue(sale.summary().startsWith("sale 7: stock 6, accepted(202) 4, db orders 6 (live 5, paid 1, "
                + "expired 1), db stock 1, redis remaining 1, redis buyers 6, returned 1, buyers 6, oversold 0, "
                + "duplicates 0, lost 0, all invariants hold; exceptions [WRITTEN_AFTER_503 sale 7 user 18"),
                sale.summary());
    }

    @Test
    void aKeptOrderThatReconcileReleasedIsALostOrder() {
        // The send failed and the 503 named the order kept for a resend; reconcile released it instead: no row, the
        // buyer mark gone, the unit back on sale. The stock adds up; the answer does not.
        SaleFixture s = soundSale();
        Op kept = s.purchase(18, 503, "UNAVAILABLE", 108L);
        Verdict v = s.check();
        assertEquals(List.of(LOST_ORDER), v.violations().stream().map(Violation::kind).toList(), v.summary());
        assertEquals(List.of(kept.requestId()), v.violations().getFirst().requestIds());
        assertEquals(1, v.sale(SALE).lost());
        assertTrue(v.sale(SALE).summary().contains("lost 1, VIOLATIONS [LOST_ORDER sale 7 user 18 order 108"),
                v.sale(SALE).summary());
    }

    @Test
    void aUnitRedisGotBackTwiceIsNamed() {
        SaleFixture s = soundSale();
        s.remainingOff = 1;
        Verdict v = s.check();
        assertEquals(List.of(UNIT_RETURNED_TWICE), v.violations().stream().map(Violation::kind).toList(),
                v.summary());
        assertTrue(v.summary().contains("1 unit(s) given back more than once"), v.summary());
    }

    @Test
    void aPaymentForAnOrderStillConfirmedIsAPaymentMismatch() {
        SaleFixture s = new SaleFixture(2).bought(11, 101);
        s.purchase(12, 202, "QUEUED", 102L);
        s.row(12, 102, FinalOrder.State.CONFIRMED, true);
        Verdict v = s.check();
        assertEquals(Set.of(PAYMENT_MISMATCH), kinds(v), v.summary());
        assertTrue(v.summary().contains("a payment for an order still CONFIRMED"), v.summary());
    }

    @Test
    void aSoldOutOnceEveryUnitWasTakenIsHonest() {
        SaleFixture s = new SaleFixture(2).bought(11, 101).bought(12, 102);
        s.purchase(13, 410, "SOLD_OUT", null);
        Verdict v = s.check();
        assertTrue(v.holds(), v.summary());
    }

    @Test
    void aRowNoRecordedAnswerExplainsIsAnExceptionWhenTheClientDroppedAttemptsInFlight() {
        // The bench's client drops what is in flight at its deadline: the buyer's dropped attempt may have written it.
        SaleFixture s = new SaleFixture(3).bought(11, 101);
        s.purchase(12, 429, "RATE_LIMITED", null);
        s.row(12, 102, FinalOrder.State.CONFIRMED, false);
        s.row(13, 103, FinalOrder.State.CONFIRMED, false);
        Verdict dropped = Checker.check(s.history(), s.state(), Recording.IN_FLIGHT_DROPPED);
        assertTrue(dropped.holds(), dropped.summary());
        assertEquals(List.of(Excused.Kind.WRITTEN_AFTER_UNRECORDED, Excused.Kind.WRITTEN_AFTER_UNRECORDED),
                dropped.exceptions().stream().map(Excused::kind).toList());
        assertEquals(2, dropped.counts().exceptions().get(Excused.Kind.WRITTEN_AFTER_UNRECORDED));
        Verdict every = Checker.check(s.history(), s.state(), Recording.EVERY_ATTEMPT);
        assertEquals(List.of(ROW_WITHOUT_ANSWER, ROW_WITHOUT_ANSWER),
                every.violations().stream().map(Violation::kind).toList(), every.summary());
    }

    @Test
    void droppedAttemptsExplainNoLostOrderAndNoOversell() {
        // Only a row's want of an answer is unknown with dropped attempts; every other check holds as it is.
        SaleFixture s = new SaleFixture(1).bought(11, 101).bought(12, 102);
        s.purchase(13, 202, "QUEUED", 103L);
        Verdict v = Checker.check(s.history(), s.state(), Recording.IN_FLIGHT_DROPPED);
        assertEquals(Set.of(OVERSELL, LOST_ORDER), kinds(v), v.summary());
    }

    @Test
    void everyViolationOfASaleIsInItsSummaryLine() {
        SaleFixture s = new SaleFixture(1).bought(11, 101).bought(12, 102).bought(11, 105);
        s.purchase(13, 202, "QUEUED", 103L);
        s.row(14, 104, FinalOrder.State.EXPIRED, true);
        s.returned().add(999L);
        Verdict v = s.check();
        SaleSummary sale = v.sale(SALE);
        assertFalse(sale.ok(), sale.summary());
        assertEquals(Set.of(OVERSELL, SECOND_ORDER, LOST_ORDER, ROW_WITHOUT_ANSWER, UNIT_RETURNED_TWICE,
                PAID_AND_EXPIRED), kinds(v), v.summary());
        assertEquals(v.violations(), sale.violations());
        assertEquals(2, sale.oversold());
        assertEquals(1, sale.duplicates());
        assertEquals(1, sale.lost());
        sale.violationLines().forEach(line -> assertTrue(sale.summary().contains(line), line));
    }

    @Test
    void theVerdictIsWrittenAsJsonAndReadBack() throws Exception {
        SaleFixture s = soundSale();
        s.purchase(18, 202, "QUEUED", 108L);
        Verdict v = s.check();
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(v);
        JsonNode tree = json.readTree(text);
        assertEquals("LOST_ORDER", tree.path("violations").path(0).path("kind").asText());
        assertEquals(1, tree.path("counts").path("violations").path("LOST_ORDER").asInt());
        assertFalse(tree.has("holds") && tree.path("holds").asBoolean(), text);
        assertEquals(v, json.readValue(text, Verdict.class));
    }
}
