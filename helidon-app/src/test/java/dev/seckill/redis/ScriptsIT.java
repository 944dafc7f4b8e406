package dev.seckill.redis;

import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.Reservation;
import dev.seckill.purchase.StockReserver;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.testkit.Stack;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every return code of every Redis script, against the real Redis, with a fixed clock (time is an argument). */
class ScriptsIT {

    private static final long START = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final long END = START + 3_600_000;
    private static final AtomicLong SALE_IDS = new AtomicLong(9_000_000_000L + System.nanoTime() % 1_000_000_000L);

    private static RedissonClient redis;
    private static ScriptRunner scripts;
    private static SaleStock stock;
    private static StockReserver reserver;

    @BeforeAll
    static void connect() {
        redis = RedisClients.create(Config.just(ConfigSources.create(Map.of("address", Stack.get().redisAddress()))));
        scripts = new ScriptRunner(redis);
        scripts.loadAll();
        stock = new SaleStock(redis, scripts);
        reserver = new StockReserver(scripts, new LimiterSettings(1.0, 3));
    }

    @AfterAll
    static void close() {
        redis.shutdown();
    }

    private static long preheated(int units) {
        long id = SALE_IDS.incrementAndGet();
        Sale sale = new Sale(id, "s", 100, units, Instant.ofEpochMilli(START), Instant.ofEpochMilli(END));
        assertTrue(stock.preheat(sale, units));
        return id;
    }

    @Test
    void preheatWritesOnceAndNeverAgain() {
        long id = SALE_IDS.incrementAndGet();
        Sale sale = new Sale(id, "s", 100, 5, Instant.ofEpochMilli(START), Instant.ofEpochMilli(END));
        assertTrue(stock.preheat(sale, 5));
        reserver.reserve(id, 1, 11, START + 1);
        assertFalse(stock.preheat(sale, 5), "a second preheat must not reset the stock");
        assertEquals(4L, stock.remaining(id));
    }

    @Test
    void purchaseQueuesDecrementsAndRecordsTheBuyer() {
        long id = preheated(2);
        Reservation r = reserver.reserve(id, 7, 700, START + 10);
        assertEquals(PurchaseOutcome.QUEUED, r.outcome());
        assertEquals(1, r.data());
        assertEquals(1L, stock.remaining(id));
        assertEquals("700", redis.getMap(Keys.buyers(id)).get("7"));
    }

    @Test
    void purchaseAnswersAlreadyPurchasedWithTheExistingOrderId() {
        long id = preheated(5);
        reserver.reserve(id, 7, 700, START + 10);
        Reservation again = reserver.reserve(id, 7, 701, START + 20);
        assertEquals(PurchaseOutcome.ALREADY_PURCHASED, again.outcome());
        assertEquals("700", again.existingOrderId());
        assertEquals(4L, stock.remaining(id));
    }

    @Test
    void purchaseAnswersSoldOutWhenStockIsZeroAndNeverGoesBelowZero() {
        long id = preheated(1);
        assertEquals(PurchaseOutcome.QUEUED, reserver.reserve(id, 1, 101, START + 1).outcome());
        assertEquals(PurchaseOutcome.SOLD_OUT, reserver.reserve(id, 2, 102, START + 2).outcome());
        assertEquals(0L, stock.remaining(id));
        assertNull(redis.getMap(Keys.buyers(id)).get("2"));
    }

    @Test
    void purchaseAnswersNotStartedWithTheTimeToStart() {
        long id = preheated(1);
        Reservation r = reserver.reserve(id, 1, 101, START - 5_000);
        assertEquals(PurchaseOutcome.NOT_STARTED, r.outcome());
        assertEquals(5_000, r.data());
        assertEquals(1L, stock.remaining(id));
    }

    @Test
    void purchaseAnswersSaleEndedAtAndAfterTheEnd() {
        long id = preheated(1);
        assertEquals(PurchaseOutcome.SALE_ENDED, reserver.reserve(id, 1, 101, END).outcome());
        assertEquals(1L, stock.remaining(id));
    }

    @Test
    void purchaseRateLimitsAUserBeyondTheBurstAndRefillsWithTime() {
        long id = preheated(1);
        long t = START - 60_000;
        for (int i = 0; i < 3; i++) {
            assertEquals(PurchaseOutcome.NOT_STARTED, reserver.reserve(id, 5, 500 + i, t).outcome());
        }
        Reservation limited = reserver.reserve(id, 5, 510, t);
        assertEquals(PurchaseOutcome.RATE_LIMITED, limited.outcome());
        assertEquals(1_000, limited.data(), "one token per second at rate 1");
        assertEquals(PurchaseOutcome.RATE_LIMITED, reserver.reserve(id, 5, 511, t + 500).outcome());
        assertEquals(PurchaseOutcome.NOT_STARTED, reserver.reserve(id, 5, 512, t + 1_000).outcome(),
                "a token is back after a second");
        assertEquals(PurchaseOutcome.NOT_STARTED, reserver.reserve(id, 6, 600, t).outcome(),
                "another user has a bucket of its own");
    }

    @Test
    void purchaseAnswersMissingWhenTheSaleKeysAreAbsent() {
        long id = preheated(3);
        redis.getKeys().delete(Keys.stock(id), Keys.meta(id));
        assertEquals(PurchaseOutcome.MISSING, reserver.reserve(id, 1, 101, START + 1).outcome());
        assertNull(stock.remaining(id), "no fresh stock appears");
    }

    @Test
    void compensateGivesTheUnitBackOnlyForTheMatchingOrderAndOnlyOnce() {
        long id = preheated(1);
        reserver.reserve(id, 1, 101, START + 1);
        assertEquals(-1, reserver.compensate(id, 1, 999), "another order id changes nothing");
        assertEquals(0L, stock.remaining(id));
        assertEquals(1, reserver.compensate(id, 1, 101));
        assertEquals(1L, stock.remaining(id));
        assertNull(redis.getMap(Keys.buyers(id)).get("1"));
        assertEquals(-1, reserver.compensate(id, 1, 101), "a second compensation changes nothing");
        assertEquals(1L, stock.remaining(id));
    }

    @Test
    void scriptsRecoverFromNoscriptAfterAScriptFlush() {
        long id = preheated(2);
        redis.getScript().scriptFlush();
        assertEquals(PurchaseOutcome.QUEUED, reserver.reserve(id, 1, 101, START + 1).outcome());
    }
}
