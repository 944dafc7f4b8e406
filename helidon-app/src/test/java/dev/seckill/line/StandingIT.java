package dev.seckill.line;

import dev.seckill.protection.SaleProtection;
import dev.seckill.redis.RedisClients;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * standing.lua's rules, run in the stack's Redis as the service runs them (the edge runs the same file: LineAnswersIT
 * compares the two answers on a real line).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StandingIT {

    private static final Instant START = Instant.parse("2030-01-01T10:00:00Z");
    private static final long T = START.toEpochMilli();
    private static final Sale SALE = new Sale(7, "s", 100, 10, START, START.plusSeconds(3600), 900,
            SaleProtection.NONE, new WaitingRoom(600, 60, null));

    private RedissonClient redis;
    private Standings standings;

    @BeforeAll
    void connect() {
        redis = StackRedis.connect(RedisClients::connect);
        standings = new Standings(new ScriptRunner(redis), new LineSettings("s".repeat(32), Duration.ofSeconds(1), 1000));
    }

    @AfterAll
    void close() {
        redis.shutdown();
    }

    private static LineTicket after(long sequence) {
        return new LineTicket(7, 1, false, sequence, START.getEpochSecond() + 3600);
    }

    private static LineTicket prequeue(long random) {
        return new LineTicket(7, 1, true, random, START.getEpochSecond() + 3600);
    }

    /** 1,000 in the pre-queue, 100 after; {@code admitted} of them admitted at T + 1 s, 10 units left. */
    private static LineProgress progress(long admitted, long remaining, long mayReturn) {
        long cut = admitted >= 1000 ? LineProgress.ALL : admitted * (LineProgress.ALL / 1000);
        return new LineProgress(T + 5000, true, 1000, 100, admitted, cut, remaining, admitted, 0, mayReturn, T + 2000,
                List.of(new LineProgress.Step(T + 1000, admitted, cut)));
    }

    @Test
    void beforeTheDrawThereIsNoPlaceYetOnlyWhenItIsDrawn() {
        LineProgress open = new LineProgress(0, false, 3, 0, 0, -1, 10, 0, 0, 0, 0, List.of());
        Standing s = standings.of(SALE, open, prequeue(5), START.minusSeconds(100));
        Standing.InLine l = assertInstanceOf(Standing.InLine.class, s);
        assertNull(l.position());
        assertNull(l.ahead());
        assertEquals(START, l.drawAt());
        assertEquals(10, l.refreshSeconds(), "100 s to the draw: poll every 10 s");
    }

    @Test
    void theEtaIsReckonedAtTheProgressNotAtTheClockSoTheEdgeWithTheSameProgressTellsTheSame() {
        // 100 admitted at T + 1 s, the progress taken at T + 5 s: 100 over 4 s is 25 a second; 19 ahead, 1 s.
        LineProgress p = progress(1000, 10, 0);
        Standing.InLine soon = assertInstanceOf(Standing.InLine.class,
                standings.of(SALE, p, after(20), Instant.ofEpochMilli(p.at())));
        Standing.InLine later = assertInstanceOf(Standing.InLine.class,
                standings.of(SALE, p, after(20), Instant.ofEpochMilli(p.at()).plusSeconds(30)));
        assertEquals(soon.etaSeconds(), later.etaSeconds());
        assertEquals(p.rate(p.at()), PublishedProgress.rate(SALE.waitingRoom(), p), "the rate the progress publishes");
    }

    @Test
    void aPlaceAfterTheDrawIsBehindThePrequeueExactly() {
        Standing.InLine l = assertInstanceOf(Standing.InLine.class,
                standings.of(SALE, progress(1000, 10, 0), after(20), START.plusSeconds(5)));
        assertEquals(1020, l.position());
        assertEquals(19, l.ahead());
        assertEquals(false, l.approximate());
    }

    @Test
    void aPrequeuePlaceIsEstimatedFromItsRandomNumberAndSaysSo() {
        Standing.InLine l = assertInstanceOf(Standing.InLine.class,
                standings.of(SALE, progress(100, 10, 0), prequeue(LineProgress.ALL / 2), START.plusSeconds(5)));
        assertEquals(500, l.position());
        assertEquals(400, l.ahead());
        assertTrue(l.approximate());
        Standing.InLine exact = assertInstanceOf(Standing.InLine.class,
                standings.of(SALE, progress(100, 10, 0), prequeue(LineProgress.ALL / 2), START.plusSeconds(5), 517L));
        assertEquals(517, exact.position());
        assertEquals(416, exact.ahead());
        assertEquals(false, exact.approximate());
    }

    @Test
    void anAdmittedPlaceMayBuyUntilItsAdmissionEndsThenItLapses() {
        LineProgress p = progress(1010, 10, 0);
        Standing.Admitted a = assertInstanceOf(Standing.Admitted.class,
                standings.of(SALE, p, after(10), START.plusSeconds(30)));
        assertEquals(START.plusSeconds(61), a.until());
        assertInstanceOf(Standing.Lapsed.class, standings.of(SALE, p, after(10), START.plusSeconds(61)));
        assertInstanceOf(Standing.Admitted.class, standings.of(SALE, p, prequeue(7), START.plusSeconds(30)));
    }

    @Test
    void withTheStockGoneTheLineIsAWaitlistWhileUnitsMayComeBackThenSoldOut() {
        Standing.Waitlist w = assertInstanceOf(Standing.Waitlist.class,
                standings.of(SALE, progress(1000, 0, 4), after(3), START.plusSeconds(5)));
        assertEquals(4, w.returning());
        assertEquals(START.plusSeconds(2 + 900), w.returnBy());
        assertEquals(1003, w.position());
        assertInstanceOf(Standing.SoldOut.class, standings.of(SALE, progress(1000, 0, 0), after(3),
                START.plusSeconds(5)));
        assertInstanceOf(Standing.Waitlist.class, standings.of(SALE, progress(1000, 0, 4), after(3),
                START.plusSeconds(903)), "a unit may come back until it is paid or returned, however late");
    }

    @Test
    void afterTheEndEveryoneHearsSaleEnded() {
        assertInstanceOf(Standing.Ended.class, standings.of(SALE, progress(1000, 10, 0), after(1),
                START.plusSeconds(3600)));
    }

    @Test
    void anEstimatedAheadIsRoundedToTwoSignificantDigits() {
        // 1,000 in the pre-queue, none admitted: a place estimated at 124 has 123 ahead, said as 120.
        Standing.InLine l = assertInstanceOf(Standing.InLine.class, standings.of(SALE, progress(0, 10, 0),
                prequeue(LineProgress.ALL / 1000 * 124 - 1), START.plusSeconds(5)));
        assertEquals(124, l.position());
        assertEquals(120, l.ahead());
    }
}
