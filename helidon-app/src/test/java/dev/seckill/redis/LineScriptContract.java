package dev.seckill.redis;

import dev.seckill.line.LineProgress;
import dev.seckill.line.LineSettings;
import dev.seckill.line.Lines;
import dev.seckill.line.WaitingRoom;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.sale.Sale;
import dev.seckill.protection.SaleProtection;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waiting room's two scripts (line_join.lua, line_advance.lua) through {@link Lines}, against a real Redis, each
 * moment a fixed clock. Written once; {@link ScriptsIT} runs it on the stack's Redis, {@link ClusterScriptsIT} on a
 * Redis Cluster.
 */
abstract class LineScriptContract extends ScriptContract {

    private static final LineSettings SETTINGS = new LineSettings("s".repeat(32), Duration.ofSeconds(1), 1000);

    static Sale lineSale(int units, Integer admitPerSecond) {
        Sale s = sale(units);
        return new Sale(s.id(), s.name(), s.priceCents(), units, s.startsAt(), s.endsAt(), 900, SaleProtection.NONE,
                new WaitingRoom(600, 10, admitPerSecond));
    }

    Sale preheatedLine(int units, Integer admitPerSecond) {
        Sale sale = lineSale(units, admitPerSecond);
        assertTrue(stock.preheat(sale, units));
        return sale;
    }

    /** The line's code as one service instance sees it at {@code ms}, with its own cache. */
    Lines at(long ms, int window) {
        return new Lines(scripts, new LineSettings(SETTINGS.secret(), SETTINGS.interval(), window), sale -> 0,
                Clock.fixed(Instant.ofEpochMilli(ms), ZoneOffset.UTC), new SimpleMeterRegistry());
    }

    Lines at(long ms) {
        return at(ms, SETTINGS.window());
    }

    @Test
    void thePrequeueIsOneShuffleDrawnAtTheStartAndEveryPlaceIsKept() {
        Sale sale = preheatedLine(5, null);
        List<Lines.Joined> joined = new ArrayList<>();
        for (long user = 1; user <= 40; user++) {
            joined.add(at(START - 60_000 + user).join(sale, user, true));
        }
        assertTrue(joined.stream().allMatch(j -> j.prequeue() && j.rank() == -1), "no rank before the draw");
        LineProgress before = at(START - 1000).progress(sale);
        assertFalse(before.drawn());
        assertEquals(40, before.prequeue());

        LineProgress drawn = at(START).progress(sale);
        assertTrue(drawn.drawn());
        assertEquals(40, drawn.prequeue());
        Set<Long> ranks = new HashSet<>();
        for (long user = 1; user <= 40; user++) {
            Lines.Joined again = at(START + 10).join(sale, user, false);
            assertEquals(joined.get((int) user - 1).value(), again.value(), "joining again keeps the place");
            assertTrue(again.prequeue());
            ranks.add(again.rank());
        }
        assertEquals(40, ranks.size(), "one rank each");
        assertTrue(ranks.stream().allMatch(r -> r >= 0 && r < 40));
        // The order is the random numbers' order: rank r holds the (r+1)-th smallest.
        List<Long> values = new ArrayList<>(joined.stream().map(Lines.Joined::value).sorted().toList());
        for (long user = 1; user <= 40; user++) {
            Lines.Joined again = at(START + 10).join(sale, user, false);
            assertEquals(values.get((int) again.rank()), again.value());
        }
    }

    @Test
    void afterTheDrawBuyersJoinBehindTheWholePrequeueInTheirOrder() {
        Sale sale = preheatedLine(1, null);
        at(START - 5000).join(sale, 1, true);
        at(START).progress(sale);
        // A service whose clock lags still puts a buyer after the draw behind it.
        Lines.Joined late = at(START - 10).join(sale, 2, true);
        Lines.Joined next = at(START + 10).join(sale, 3, false);
        assertFalse(late.prequeue());
        assertEquals(1, late.value());
        assertEquals(2, next.value());
    }

    @Test
    void aBuyerWhoHoldsAnOrderIsToldSoOnJoining() {
        Sale sale = preheatedLine(2, null);
        assertInstanceOf(PurchaseOutcome.Queued.class, reserver.reserve(sale, 7, 700, START + 1));
        Lines.Joined j = at(START + 2).join(sale, 7, false);
        assertEquals("700", j.orderId());
    }

    @Test
    void theLineAdmitsNoMoreThanTheUnitsLeftUnclaimed() {
        Sale sale = preheatedLine(3, null);
        for (long user = 1; user <= 10; user++) {
            at(START + user).join(sale, user, false);
        }
        LineProgress p = at(START + 100).progress(sale);
        assertEquals(3, p.admitted(), "three units, three admissions");
        assertEquals(3, at(START + 5000).progress(sale).admitted(), "none bought, none lapsed: still three");
    }

    @Test
    void aLineThatFollowsTheBuyersKeepsItsWindowOfAdmissionsOutstanding() {
        Sale sale = preheatedLine(100, null);
        for (long user = 1; user <= 20; user++) {
            at(START + user).join(sale, user, false);
        }
        assertEquals(5, at(START + 100, 5).progress(sale).admitted());
        reserver.reserve(sale, 1, 101, START + 200);
        reserver.reserve(sale, 2, 102, START + 300);
        LineProgress p = at(START + 1200, 5).progress(sale);
        assertEquals(2, p.used());
        assertEquals(7, p.admitted(), "two used, two more admitted");
    }

    @Test
    void anAdmissionNotUsedInTimeLapsesAndItsUnitGoesToTheNextInLine() {
        Sale sale = preheatedLine(2, null);
        for (long user = 1; user <= 5; user++) {
            at(START + user).join(sale, user, false);
        }
        assertEquals(2, at(START + 100).progress(sale).admitted());
        reserver.reserve(sale, 1, 101, START + 200);
        // Admission time 10 s: the second admission lapses; its unit goes to the third in line.
        LineProgress p = at(START + 100 + 10_000).progress(sale);
        assertEquals(1, p.lapsed());
        assertEquals(3, p.admitted());
        assertEquals(1, p.remaining());
    }

    @Test
    void aFixedRateAdmitsThatManyASecond() {
        Sale sale = preheatedLine(100, 2);
        for (long user = 1; user <= 20; user++) {
            at(START + user).join(sale, user, false);
        }
        at(START).progress(sale);
        assertEquals(2, at(START + 1000).progress(sale).admitted());
        assertEquals(4, at(START + 2000).progress(sale).admitted());
    }

    @Test
    void aStepRecordsWhenEachPlaceWasAdmitted() {
        Sale sale = preheatedLine(10, 1);
        for (long user = 1; user <= 3; user++) {
            at(START + user).join(sale, user, false);
        }
        at(START).progress(sale);
        LineProgress p = at(START + 1000).progress(sale);
        p = at(START + 2000).progress(sale);
        assertEquals(2, p.admitted());
        assertNotNull(p.steps());
        assertEquals(START + 1000, p.steps().getFirst().ms());
        assertEquals(START + 2000, p.steps().getLast().ms());
    }
}
