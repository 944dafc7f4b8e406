package dev.seckill.redis;

import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.StockChange;
import dev.seckill.sale.UnitReturn;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every return code of release.lua, and conserve.lua with returned units, against the real Redis: the
 * unit of an expired order comes back at most once per order id, and its buyer keeps the mark.
 */
class ReleaseScriptIT {

    private static final long START = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final AtomicLong SALE_IDS = new AtomicLong(8_000_000_000L + System.nanoTime() % 1_000_000_000L);

    private static RedissonClient redis;
    private static SaleStock stock;
    private static RedisStockReserver reserver;
    private static RedisUnitLedger ledger;
    private static BuyerMarks marks;

    @BeforeAll
    static void connect() {
        redis = StackRedis.connect(RedisClients::connect);
        ScriptRunner scripts = new ScriptRunner(redis);
        scripts.loadAll();
        stock = new SaleStock(redis, scripts);
        reserver = new RedisStockReserver(scripts, new LimiterSettings(1.0, 3), ReplicaAcks.none());
        ledger = new RedisUnitLedger(redis, scripts, ReplicaAcks.none());
        marks = new BuyerMarks(redis);
    }

    @AfterAll
    static void close() {
        redis.shutdown();
    }

    /** A preheated sale of {@code units}, all of them bought: user i holds order 100 + i. */
    private static Sale soldOut(int units) {
        Sale sale = new Sale(SALE_IDS.incrementAndGet(), "s", 100, units, Instant.ofEpochMilli(START),
                Instant.ofEpochMilli(START + 3_600_000));
        assertTrue(stock.preheat(sale, units));
        for (int i = 1; i <= units; i++) {
            reserver.reserve(sale, i, 100 + i, START + 1);
        }
        assertEquals(0L, stock.remaining(sale.id()));
        return sale;
    }

    @Test
    void theUnitOfAnExpiredOrderComesBackAndReopensASoldOutSale() {
        Sale sale = soldOut(2);
        UnitReturn r = ledger.release(sale.id(), 1, 101);
        assertEquals(new UnitReturn(UnitReturn.Kind.RETURNED, 1), r);
        assertTrue(r.reopened());
        assertEquals(1L, stock.remaining(sale.id()));
        assertEquals("101", marks.order(sale.id(), 1).orElseThrow(), "the lapsed buyer keeps the mark");
        assertEquals(1, ledger.returned(sale.id()));
    }

    @Test
    void releasingAnExpiredOrderDropsTheUnsentEntryItsLandedFailedSendLeft() {
        Sale sale = soldOut(2);
        ledger.unsent(sale.id(), 1, 101, START + 1);
        ledger.unsent(sale.id(), 2, 102, START + 1);
        assertEquals(UnitReturn.Kind.RETURNED, ledger.release(sale.id(), 1, 101).kind());
        assertFalse(redis.getMap(Keys.unsent(sale.id())).containsKey("1"), "no retry may resend an expired order");
        assertTrue(redis.getMap(Keys.unsent(sale.id())).containsKey("2"), "another buyer's entry stays");
    }

    @Test
    void aSecondReleaseOfTheSameOrderChangesNothing() {
        Sale sale = soldOut(2);
        ledger.release(sale.id(), 1, 101);
        assertEquals(new UnitReturn(UnitReturn.Kind.ALREADY, 0), ledger.release(sale.id(), 1, 101));
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void anOrderTheBuyerDoesNotHoldIsNotReleased() {
        Sale sale = soldOut(2);
        assertEquals(UnitReturn.Kind.NOT_HELD, ledger.release(sale.id(), 1, 999).kind(), "another order id");
        assertEquals(UnitReturn.Kind.NOT_HELD, ledger.release(sale.id(), 9, 109).kind(), "no mark at all");
        assertEquals(0L, stock.remaining(sale.id()));
        assertEquals(0, ledger.returned(sale.id()));
    }

    @Test
    void aSaleWhoseKeysAreGoneIsLeftToReconcile() {
        Sale sale = soldOut(1);
        redis.getKeys().delete(Keys.stock(sale.id()));
        assertEquals(UnitReturn.Kind.MISSING, ledger.release(sale.id(), 1, 101).kind());
        assertEquals(0, ledger.returned(sale.id()));
    }

    @Test
    void conserveCountsOnlyLiveBuyers() {
        Sale sale = soldOut(3);
        ledger.release(sale.id(), 1, 101);
        redis.getBucket(Keys.stock(sale.id())).set("0");
        assertEquals(new StockChange(0, 1), stock.conserve(sale), "3 buyers, 1 returned: 1 unit on sale");
        assertTrue(ledger.markReturned(sale.id(), 102));
        assertEquals(new StockChange(1, 2), stock.conserve(sale));
    }

    @Test
    void aBatchReleasesManyOrdersOfSeveralSalesInOneRoundTripAndARepeatChangesNothing() {
        Sale a = soldOut(2);
        Sale b = soldOut(1);
        List<UnitReturn.Request> batch = List.of(new UnitReturn.Request(a.id(), 1, 101),
                new UnitReturn.Request(a.id(), 2, 102), new UnitReturn.Request(b.id(), 1, 101),
                new UnitReturn.Request(b.id(), 5, 999));
        assertEquals(List.of(UnitReturn.Kind.RETURNED, UnitReturn.Kind.RETURNED, UnitReturn.Kind.RETURNED,
                UnitReturn.Kind.NOT_HELD), ledger.release(batch).stream().map(UnitReturn::kind).toList());
        assertEquals(2L, stock.remaining(a.id()));
        assertEquals(1L, stock.remaining(b.id()));
        assertTrue(ledger.release(batch).stream().limit(3).allMatch(r -> r.kind() == UnitReturn.Kind.ALREADY));
        assertEquals(2L, stock.remaining(a.id()));
    }

    @Test
    void aBatchAfterRedisForgotTheScriptFallsBackToOneByOneAndReloadsIt() {
        Sale sale = soldOut(2);
        redis.getScript().scriptFlush();
        assertEquals(List.of(new UnitReturn(UnitReturn.Kind.RETURNED, 1), new UnitReturn(UnitReturn.Kind.RETURNED, 2)),
                ledger.release(List.of(new UnitReturn.Request(sale.id(), 1, 101), new UnitReturn.Request(sale.id(), 2, 102))));
    }
}
