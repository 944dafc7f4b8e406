package dev.seckill.bench.measure;

import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.measure.Invariants.Kind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bench's invariant check handed broken states (issue 37): each one the check exists to catch is named by the
 * exact kind it breaks, and a sound sale, with both documented exceptions in it, holds.
 */
class InvariantsTest {

    private static final long SALE = 7;

    /** A sale's answers and the rows and keys a sound system leaves for them; a test breaks one thing. */
    private static final class Fixture {
        final int total;
        final List<Attempt> attempts = new ArrayList<>();
        final List<SaleSnapshot.Row> rows = new ArrayList<>();
        final Map<String, String> marks = new LinkedHashMap<>();
        final Set<Long> returned = new TreeSet<>();
        long clock;
        int dbStockOff;
        int remainingOff;
        boolean stockKeyGone;

        Fixture(int total) {
            this.total = total;
        }

        Attempt attempt(long user, int status, String code, Long order) {
            clock += 10;
            Attempt a = new Attempt(user, clock, 5, status, code, order == null ? null : Long.toString(order), false);
            attempts.add(a);
            return a;
        }

        /** The order's row and its buyer mark, and (when it expired) its unit back in Redis. */
        Fixture row(long user, long order, String state, boolean paid) {
            rows.add(new SaleSnapshot.Row(user, order, state, paid));
            marks.putIfAbsent(Long.toString(user), Long.toString(order));
            if (state.equals("EXPIRED")) {
                returned.add(order);
            }
            return this;
        }

        Fixture bought(long user, long order) {
            attempt(user, 202, "QUEUED", order);
            return row(user, order, "CONFIRMED", false);
        }

        SaleSnapshot snapshot() {
            long live = rows.stream().filter(SaleSnapshot.Row::live).count();
            return new SaleSnapshot(SALE, total, Math.max(0, total - live + dbStockOff), List.copyOf(rows),
                    stockKeyGone ? null : total - live + remainingOff, Map.copyOf(marks), Set.copyOf(returned));
        }

        Invariants.Report check() {
            return Invariants.judge(snapshot(), attempts, true, null);
        }
    }

    /**
     * Five units: two bought, one paid, one lapsed (its unit back on sale), one left; refusals of each kind, a 503
     * and a silence that held nothing; and one row after a 503 without an order id, one after a silence.
     */
    private static Fixture soundSale() {
        Fixture f = new Fixture(6).bought(11, 101).bought(12, 102);
        f.attempt(13, 202, "QUEUED", 103L);
        f.row(13, 103, "PAID", true);
        f.attempt(14, 202, "QUEUED", 104L);
        f.row(14, 104, "EXPIRED", false);
        f.attempt(11, 409, "ALREADY_PURCHASED", 101L);
        f.attempt(15, 409, "NOT_STARTED", null);
        f.attempt(15, 410, "SOLD_OUT", null);
        f.attempt(15, 429, "RATE_LIMITED", null);
        f.attempt(16, 503, "UNAVAILABLE", null);
        f.attempt(17, 0, "NO_ANSWER", null);
        f.attempt(18, 503, "UNAVAILABLE", null);
        f.attempt(18, 409, "ALREADY_PURCHASED", 108L);
        f.row(18, 108, "CONFIRMED", false);
        f.attempt(19, 429, "RATE_LIMITED", null);
        f.attempt(19, 0, "NO_ANSWER", null);
        f.row(19, 109, "CONFIRMED", false);
        return f;
    }

    private static List<Kind> kinds(Invariants.Report r) {
        return r.violations().stream().map(v -> Kind.valueOf(v.substring(0, v.indexOf(':')))).toList();
    }

    private static Set<Kind> set(Kind... kinds) {
        return Set.copyOf(Arrays.asList(kinds));
    }

    @Test
    void aSoundSaleWithBothDocumentedExceptionsHolds() {
        Invariants.Report r = soundSale().check();
        assertTrue(r.ok(), r.summary());
        assertEquals(6, r.dbOrders());
        assertEquals(5, r.liveOrders());
        assertEquals(4, r.accepted());
        assertEquals(0, r.lost());
    }

    @Test
    void moreLiveOrdersThanUnitsIsAnOversell() {
        Fixture f = new Fixture(2).bought(11, 101).bought(12, 102).bought(13, 103);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.OVERSELL, Kind.OVERSELL), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().equals("OVERSELL: 3 live orders for stock 2"), r.summary());
        assertEquals("OVERSELL: redis stock below zero: -1", r.violations().get(1));
    }

    @Test
    void aSecondRowOfOneBuyerIsASecondOrder() {
        Fixture f = soundSale();
        f.attempt(11, 202, "QUEUED", 110L);
        f.row(11, 110, "CONFIRMED", false);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.SECOND_ORDER, Kind.SECOND_ORDER), kinds(r), r.summary());
        assertTrue(r.violations().contains("SECOND_ORDER: user 11 has 2 orders: [101, 110]"), r.summary());
        assertTrue(r.violations().contains("SECOND_ORDER: user 11 was granted 2 different orders: [101, 110]"),
                r.summary());
    }

    @Test
    void a202WithoutItsRowIsALostOrder() {
        Fixture f = soundSale();
        f.attempt(20, 202, "QUEUED", 120L);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.LOST_ORDER), kinds(r), r.summary());
        assertEquals("LOST_ORDER: order 120 granted to user 20 (202) has no row", r.violations().getFirst());
        assertEquals(1, r.lost());
    }

    @Test
    void a503NamingAKeptOrderThatReconcileReleasedIsALostOrder() {
        // The send failed and the unit was kept for a resend; reconcile released it instead: no row, mark gone.
        Fixture f = soundSale();
        f.attempt(20, 503, "UNAVAILABLE", 120L);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.LOST_ORDER), kinds(r), r.summary());
        assertEquals("LOST_ORDER: order 120 granted to user 20 (503) has no row", r.violations().getFirst());
        assertEquals(1, r.lost());
    }

    @Test
    void a202NamingAnotherBuyersRowIsALostOrder() {
        Fixture f = soundSale();
        f.attempt(20, 202, "QUEUED", 101L);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.LOST_ORDER), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().endsWith("(the row is user 11's)"), r.summary());
    }

    @Test
    void aUnitRedisGotBackTwiceIsNamed() {
        Fixture f = soundSale();
        f.remainingOff = 1;
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.UNIT_RETURNED_TWICE), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().startsWith("UNIT_RETURNED_TWICE: redis remaining"), r.summary());
    }

    @Test
    void aUnitTheDatabaseGotBackTwiceIsNamed() {
        Fixture f = soundSale();
        f.dbStockOff = 1;
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.UNIT_RETURNED_TWICE), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().startsWith("UNIT_RETURNED_TWICE: db stock 2 > stock 6"), r.summary());
    }

    @Test
    void aLiveOrderInTheReturnedSetIsAUnitReturnedTwice() {
        Fixture f = soundSale();
        f.returned.add(101L);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.UNIT_RETURNED_TWICE), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().contains("order 101 is in the returned set but is CONFIRMED"),
                r.summary());
    }

    @Test
    void anExpiredOrderRedisNeverGotBackIsNamed() {
        Fixture f = soundSale();
        f.returned.remove(104L);
        f.remainingOff = -1;
        Invariants.Report r = f.check();
        assertEquals(set(Kind.UNIT_NOT_RETURNED, Kind.CONSERVATION), Set.copyOf(kinds(r)), r.summary());
        assertEquals(2, r.violations().size(), r.summary());
    }

    @Test
    void aPaidOrderThatExpiredIsPaidAndExpired() {
        Fixture f = soundSale();
        f.attempt(20, 202, "QUEUED", 120L);
        f.row(20, 120, "EXPIRED", true);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.PAID_AND_EXPIRED), kinds(r), r.summary());
        assertEquals("PAID_AND_EXPIRED: order 120 has a payment and EXPIRED: an expired order must never be paid",
                r.violations().getFirst());
    }

    @Test
    void aPaidOrderWithoutItsPaymentAndAPaymentOfAConfirmedOneAreMismatches() {
        Fixture f = new Fixture(2);
        f.attempt(20, 202, "QUEUED", 120L);
        f.row(20, 120, "PAID", false);
        f.attempt(21, 202, "QUEUED", 121L);
        f.row(21, 121, "CONFIRMED", true);
        Invariants.Report r = f.check();
        assertEquals(List.of("PAYMENT_MISMATCH: order 120 is PAID without a payment",
                "PAYMENT_MISMATCH: order 121 is CONFIRMED with a payment"), r.violations());
    }

    @Test
    void aUnitMissingFromRedisOrTheDatabaseBreaksConservation() {
        Fixture f = soundSale();
        f.remainingOff = -1;
        assertEquals(List.of(Kind.CONSERVATION), kinds(f.check()), f.check().summary());
        f.remainingOff = 0;
        f.dbStockOff = -1;
        assertEquals(List.of(Kind.CONSERVATION), kinds(f.check()), f.check().summary());
        f.dbStockOff = 0;
        f.stockKeyGone = true;
        assertEquals(List.of("CONSERVATION: redis has no stock for the sale"), f.check().violations());
    }

    @Test
    void buyerMarksThatDoNotMatchTheRowsBreakConservation() {
        Fixture f = soundSale();
        f.marks.remove("11");
        f.marks.put("12", "199");
        f.marks.put("20", "120");
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.CONSERVATION, Kind.CONSERVATION, Kind.CONSERVATION), kinds(r), r.summary());
        assertTrue(r.violations().contains("CONSERVATION: db order 101 of user 11 has no redis buyer mark"),
                r.summary());
        assertTrue(r.violations().contains("CONSERVATION: db order 102 of user 12 has the buyer mark of order 199"),
                r.summary());
    }

    @Test
    void aRowWhoseBuyerNeverClickedIsARowWithoutAnswer() {
        Fixture f = soundSale();
        f.row(20, 120, "CONFIRMED", false);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.ROW_WITHOUT_ANSWER), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().startsWith("ROW_WITHOUT_ANSWER: order 120 of user 20"), r.summary());
        assertTrue(r.violations().getFirst().endsWith("the buyer never clicked"), r.summary());
    }

    @Test
    void aRowWhoseBuyerHeardSoldOutIsARowWithoutAnswer() {
        Fixture f = soundSale();
        f.attempt(20, 410, "SOLD_OUT", null);
        f.row(20, 120, "CONFIRMED", false);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.ROW_WITHOUT_ANSWER), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().endsWith("the buyer heard 410 SOLD_OUT"), r.summary());
    }

    @Test
    void aRowWhoseBuyerHeardRateLimitedThenAlreadyPurchasedIsARowWithoutAnswer() {
        Fixture f = soundSale();
        f.attempt(20, 429, "RATE_LIMITED", null);
        f.attempt(20, 409, "ALREADY_PURCHASED", 120L);
        f.attempt(20, 0, "NO_ANSWER", null);
        f.row(20, 120, "CONFIRMED", false);
        Invariants.Report r = f.check();
        assertEquals(List.of(Kind.ROW_WITHOUT_ANSWER), kinds(r), r.summary());
        assertTrue(r.violations().getFirst().endsWith(
                "the buyer heard 429 RATE_LIMITED, 409 ALREADY_PURCHASED, 0 NO_ANSWER"), r.summary());
    }

    @Test
    void rowsAreNotHeldAgainstAnswersWhenUnansweredAttemptsMayBeMissing() {
        Fixture f = soundSale();
        f.attempt(20, 410, "SOLD_OUT", null);
        f.row(20, 120, "CONFIRMED", false);
        assertTrue(Invariants.judge(f.snapshot(), f.attempts, false, null).ok());
    }

    @Test
    void aSaleThatSoldOtherThanMinOfStockAndShoppersIsNamed() {
        Fixture f = soundSale();
        Invariants.Report r = Invariants.judge(f.snapshot(), f.attempts, true, 5L);
        assertEquals(List.of(Kind.SOLD_COUNT), kinds(r), r.summary());
        assertTrue(Invariants.judge(f.snapshot(), f.attempts, true, 6L).ok());
    }

    @Test
    void everyViolationLineStartsWithItsKind() {
        Fixture f = new Fixture(1).bought(11, 101).bought(12, 102);
        f.attempt(13, 202, "QUEUED", 103L);
        f.row(14, 104, "EXPIRED", true);
        f.returned.add(999L);
        Invariants.Report r = f.check();
        assertEquals(r.violations().size(), kinds(r).size());
        assertEquals(set(Kind.OVERSELL, Kind.LOST_ORDER, Kind.ROW_WITHOUT_ANSWER, Kind.UNIT_RETURNED_TWICE,
                Kind.PAID_AND_EXPIRED), Set.copyOf(kinds(r)), r.summary());
        assertTrue(r.summary().contains(r.violations().stream().collect(Collectors.joining(", "))), r.summary());
    }
}
