package dev.seckill.redis;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.Attempt;
import dev.seckill.purchase.BuyerMarks;
import dev.seckill.purchase.Decision;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.purchase.RedisUnitLedger;
import dev.seckill.purchase.UnitsHeld;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.sale.StockChange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every return code of every Redis script, against a real Redis, with a fixed clock (time is an argument). Written
 * once; {@link ScriptsIT} runs it on the stack's Redis, {@link ClusterScriptsIT} on a Redis Cluster, where each
 * sale's hash tag puts it on one of the shards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ScriptContract {

    static final long START = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final long END = START + 3_600_000;
    private static final AtomicLong SALE_IDS = new AtomicLong(9_000_000_000L + System.nanoTime() % 1_000_000_000L);

    RedissonClient redis;
    ScriptRunner scripts;
    SaleStock stock;
    RedisStockReserver reserver;
    RedisUnitLedger ledger;
    BuyerMarks marks;

    /** The Redis to run the scripts on. */
    abstract RedissonClient connect();

    @BeforeAll
    void connectAndLoad() {
        redis = connect();
        scripts = new ScriptRunner(redis);
        scripts.loadAll();
        stock = new SaleStock(redis, scripts);
        reserver = new RedisStockReserver(scripts, new LimiterSettings(1.0, 3), ReplicaAcks.none());
        ledger = new RedisUnitLedger(redis, scripts, ReplicaAcks.none());
        marks = new BuyerMarks(redis);
    }

    @AfterAll
    void close() {
        redis.shutdown();
    }

    static Sale sale(int units) {
        return new Sale(SALE_IDS.incrementAndGet(), "s", 100, units, Instant.ofEpochMilli(START), Instant.ofEpochMilli(END));
    }

    Sale preheated(int units) {
        Sale sale = sale(units);
        assertTrue(stock.preheat(sale, units));
        return sale;
    }

    @Test
    void preheatWritesOnceAndNeverAgain() {
        Sale sale = sale(5);
        assertTrue(stock.preheat(sale, 5));
        reserver.reserve(sale, 1, 11, START + 1);
        assertFalse(stock.preheat(sale, 5), "a second preheat must not reset the stock");
        assertEquals(4L, stock.remaining(sale.id()));
    }

    @Test
    void purchaseQueuesDecrementsAndRecordsTheBuyer() {
        Sale sale = preheated(2);
        assertEquals(new PurchaseOutcome.Queued("700"), reserver.reserve(sale, 7, 700, START + 10));
        assertEquals(1L, stock.remaining(sale.id()));
        assertEquals("700", redis.getMap(Keys.buyers(sale.id())).get("7"));
    }

    @Test
    void purchaseAnswersAlreadyPurchasedWithTheExistingOrderId() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 7, 700, START + 10);
        assertEquals(new PurchaseOutcome.AlreadyPurchased("700"), reserver.reserve(sale, 7, 701, START + 20));
        assertEquals(4L, stock.remaining(sale.id()));
    }

    @Test
    void purchaseAnswersSoldOutWhenStockIsZeroAndNeverGoesBelowZero() {
        Sale sale = preheated(1);
        assertInstanceOf(PurchaseOutcome.Queued.class, reserver.reserve(sale, 1, 101, START + 1));
        assertEquals(new PurchaseOutcome.SoldOut(false), reserver.reserve(sale, 2, 102, START + 2));
        assertEquals(0L, stock.remaining(sale.id()));
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("2"));
    }

    @Test
    void purchaseAnswersNotStartedWithTheStartAndTheTimeToIt() {
        Sale sale = preheated(1);
        assertEquals(new PurchaseOutcome.NotStarted(sale.startsAt(), 5_000), reserver.reserve(sale, 1, 101, START - 5_000));
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void purchaseAnswersSaleEndedAtAndAfterTheEnd() {
        Sale sale = preheated(1);
        assertEquals(new PurchaseOutcome.SaleEnded(), reserver.reserve(sale, 1, 101, END));
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void purchaseRateLimitsAUserBeyondTheBurstAndRefillsWithTime() {
        Sale sale = preheated(1);
        long t = START - 60_000;
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(PurchaseOutcome.NotStarted.class, reserver.reserve(sale, 5, 500 + i, t));
        }
        assertEquals(new PurchaseOutcome.RateLimited(1_000), reserver.reserve(sale, 5, 510, t),
                "one token per second at rate 1");
        assertInstanceOf(PurchaseOutcome.RateLimited.class, reserver.reserve(sale, 5, 511, t + 500));
        assertInstanceOf(PurchaseOutcome.NotStarted.class, reserver.reserve(sale, 5, 512, t + 1_000),
                "a token is back after a second");
        assertInstanceOf(PurchaseOutcome.NotStarted.class, reserver.reserve(sale, 6, 600, t),
                "another user has a bucket of its own");
    }

    @Test
    void purchaseFailsAsUnavailableWhenTheSaleKeysAreAbsent() {
        Sale sale = preheated(3);
        redis.getKeys().delete(Keys.stock(sale.id()), Keys.meta(sale.id()));
        assertThrows(DependencyUnavailable.class, () -> reserver.reserve(sale, 1, 101, START + 1));
        assertNull(stock.remaining(sale.id()), "no fresh stock appears");
    }

    /** One purchase.lua call for these attempts (userId, orderId, now) of one sale: each one's outcome or failure. */
    private List<Decision> batch(Sale sale, long... userOrderNow) {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < userOrderNow.length; i += 3) {
            attempts.add(new Attempt(sale, userOrderNow[i], userOrderNow[i + 1], userOrderNow[i + 2]));
        }
        return reserver.decide(attempts);
    }

    @Test
    void aBatchDecidesEachBuyerInOrderAndSellsOutMidBatch() {
        Sale sale = preheated(2);
        List<Decision> d = batch(sale, 1, 101, START + 1, 2, 102, START + 1, 3, 103, START + 1,
                4, 104, START + 1);
        assertEquals(List.of(new PurchaseOutcome.Queued("101"), new PurchaseOutcome.Queued("102"),
                new PurchaseOutcome.SoldOut(false), new PurchaseOutcome.SoldOut(false)),
                d.stream().map(Decision::get).toList(), "the first two in order take the two units");
        assertEquals(0L, stock.remaining(sale.id()));
        assertEquals(Map.of("1", "101", "2", "102"), redis.getMap(Keys.buyers(sale.id()), StringCodec.INSTANCE).readAllMap());
    }

    @Test
    void aBuyerTwiceInOneBatchIsAnsweredAsTwoCallsInARowWouldBe() {
        Sale sale = preheated(5);
        List<Decision> d = batch(sale, 7, 700, START + 1, 7, 701, START + 2, 8, 800, START + 3);
        assertEquals(new PurchaseOutcome.Queued("700"), d.get(0).get());
        assertEquals(new PurchaseOutcome.AlreadyPurchased("700"), d.get(1).get());
        assertEquals(new PurchaseOutcome.Queued("800"), d.get(2).get());
        assertEquals(3L, stock.remaining(sale.id()), "one unit per buyer");
        // The same call again (a client retry after a lost answer; later, so the buckets have refilled): each buyer
        // finds its own reservation.
        long later = START + 3_000;
        List<Decision> again = batch(sale, 7, 700, later, 7, 701, later, 8, 800, later);
        assertEquals(new PurchaseOutcome.Queued("700"), again.get(0).get());
        assertEquals(new PurchaseOutcome.AlreadyPurchased("700"), again.get(1).get());
        assertEquals(new PurchaseOutcome.Queued("800"), again.get(2).get());
        assertEquals(3L, stock.remaining(sale.id()));
    }

    @Test
    void aRateLimitedBuyerAmongOthersIsRefusedAloneAndTakesNoUnit() {
        Sale sale = preheated(5);
        long t = START + 1;
        for (int i = 0; i < 3; i++) {
            reserver.reserve(sale, 9, 900 + i, t);
        }
        List<Decision> d = batch(sale, 1, 101, t, 9, 910, t, 2, 102, t);
        assertEquals(new PurchaseOutcome.Queued("101"), d.get(0).get());
        assertEquals(new PurchaseOutcome.RateLimited(1_000), d.get(1).get());
        assertEquals(new PurchaseOutcome.Queued("102"), d.get(2).get());
        assertEquals(2L, stock.remaining(sale.id()), "user 9's first purchase and the two others");
    }

    @Test
    void aBatchStraddlingTheStartAndTheEndJudgesEachBuyerByItsOwnClock() {
        Sale sale = preheated(5);
        List<Decision> d = batch(sale, 1, 101, START - 1, 2, 102, START, 3, 103, END - 1, 4, 104, END);
        assertEquals(new PurchaseOutcome.NotStarted(sale.startsAt(), 1), d.get(0).get());
        assertEquals(new PurchaseOutcome.Queued("102"), d.get(1).get());
        assertEquals(new PurchaseOutcome.Queued("103"), d.get(2).get());
        assertEquals(new PurchaseOutcome.SaleEnded(), d.get(3).get());
        assertEquals(3L, stock.remaining(sale.id()));
    }

    @Test
    void aBatchWithAHeldUnitAnswersResendToItsBuyerAndHeldToOthersOnceTheStockIsGone() {
        Sale sale = preheated(2);
        reserver.reserve(sale, 7, 700, START + 10);
        ledger.unsent(sale.id(), 7, 700, START + 10);
        List<Decision> d = batch(sale, 1, 101, START + 20, 7, 701, START + 20, 2, 102, START + 20);
        assertEquals(new PurchaseOutcome.Queued("101"), d.get(0).get(), "the last free unit");
        assertEquals(new PurchaseOutcome.Queued("700"), d.get(1).get(), "RESEND of the held order");
        assertThrows(UnitsHeld.class, d.get(2)::get, "HELD: not sold out while a unit may come back");
        assertEquals("700:" + (START + 20), redis.getMap(Keys.unsent(sale.id())).get("7"));
    }

    @Test
    void aBatchOfASaleWhoseKeysAreGoneFailsEveryBuyerAsUnavailable() {
        Sale sale = preheated(3);
        redis.getKeys().delete(Keys.stock(sale.id()), Keys.meta(sale.id()));
        for (Decision d : batch(sale, 1, 101, START + 1, 2, 102, START + 1)) {
            assertThrows(DependencyUnavailable.class, d::get);
        }
        assertNull(stock.remaining(sale.id()), "no fresh stock appears");
    }

    @Test
    void compensateGivesTheUnitBackOnlyForTheMatchingOrderAndOnlyOnce() {
        Sale sale = preheated(1);
        long id = sale.id();
        reserver.reserve(sale, 1, 101, START + 1);
        assertEquals(-1, ledger.compensate(id, 1, 999, Long.MAX_VALUE), "another order id changes nothing");
        assertEquals(0L, stock.remaining(id));
        assertEquals(1, ledger.compensate(id, 1, 101, Long.MAX_VALUE));
        assertEquals(1L, stock.remaining(id));
        assertNull(redis.getMap(Keys.buyers(id)).get("1"));
        assertEquals(-1, ledger.compensate(id, 1, 101, Long.MAX_VALUE), "a second compensation changes nothing");
        assertEquals(1L, stock.remaining(id));
    }

    @Test
    void compensateRefusesWhileTheOrderWasSentAgainSinceAndOtherwiseDropsItsUnsentEntry() {
        Sale sale = preheated(1);
        long id = sale.id();
        reserver.reserve(sale, 1, 101, START + 1);
        ledger.unsent(id, 1, 101, START + 50);
        assertEquals(-2, ledger.compensate(id, 1, 101, START + 50), "a send began at the cut-off: the unit stays");
        assertEquals(0L, stock.remaining(id));
        assertEquals("101", redis.getMap(Keys.buyers(id)).get("1"));
        assertEquals(1, ledger.compensate(id, 1, 101, START + 51));
        assertNull(redis.getMap(Keys.unsent(id)).get("1"), "no unsent entry outlives its reservation");
        assertEquals(1L, stock.remaining(id));
    }

    @Test
    void purchaseAnswersResendForABuyerWhoseSendFailedAndRefreshesTheSendTime() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 7, 700, START + 10);
        ledger.unsent(sale.id(), 7, 700, START + 10);
        assertEquals(new PurchaseOutcome.Queued("700"), reserver.reserve(sale, 7, 701, START + 2_000),
                "RESEND: the same order, queued again");
        assertEquals("700:" + (START + 2_000), redis.getMap(Keys.unsent(sale.id())).get("7"));
        assertEquals(4L, stock.remaining(sale.id()), "no second unit");
        assertEquals("700", redis.getMap(Keys.buyers(sale.id())).get("7"));
    }

    @Test
    void noStockWhileAUnitWaitsForItsResendIsNotSoldOutUntilThatSendIsSettled() {
        Sale sale = preheated(1);
        reserver.reserve(sale, 7, 700, START + 10);
        ledger.unsent(sale.id(), 7, 700, START + 10);
        assertThrows(DependencyUnavailable.class, () -> reserver.reserve(sale, 8, 800, START + 20),
                "HELD: the unit may come back, so no SOLD_OUT (which would set the flags)");
        assertEquals(new PurchaseOutcome.Queued("700"), reserver.reserve(sale, 7, 701, START + 30));
        ledger.sent(sale.id(), 7, 700);
        assertEquals(new PurchaseOutcome.SoldOut(false), reserver.reserve(sale, 8, 800, START + 40));
    }

    @Test
    void purchaseAnswersAlreadyPurchasedWhenTheUnsentEntryIsOfAnotherOrder() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 7, 700, START + 10);
        redis.getMap(Keys.unsent(sale.id())).put("7", "650:" + START);
        assertEquals(new PurchaseOutcome.AlreadyPurchased("700"), reserver.reserve(sale, 7, 701, START + 20));
        assertEquals("650:" + START, redis.getMap(Keys.unsent(sale.id())).get("7"), "a stale entry is not refreshed");
    }

    @Test
    void unsentRecordsTheFailedSendOnlyWhileTheBuyerHoldsThatOrderAndKeepsTheNewestTime() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 7, 700, START + 10);
        ledger.unsent(sale.id(), 7, 999, START + 10);
        ledger.unsent(sale.id(), 8, 800, START + 10);
        assertTrue(redis.getMap(Keys.unsent(sale.id())).isEmpty(), "no entry for an order no buyer holds");
        ledger.unsent(sale.id(), 7, 700, START + 30);
        ledger.unsent(sale.id(), 7, 700, START + 20);
        assertEquals("700:" + (START + 30), redis.getMap(Keys.unsent(sale.id())).get("7"),
                "a slower attempt's failure does not set the time back");
    }

    @Test
    void sentForgetsOnlyTheEntryOfThatOrder() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 7, 700, START + 10);
        ledger.unsent(sale.id(), 7, 700, START + 10);
        ledger.sent(sale.id(), 7, 699);
        assertEquals("700:" + (START + 10), redis.getMap(Keys.unsent(sale.id())).get("7"));
        ledger.sent(sale.id(), 7, 700);
        assertNull(redis.getMap(Keys.unsent(sale.id())).get("7"));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("700"), reserver.reserve(sale, 7, 701, START + 20),
                "once sent, a retry is told its order");
    }

    @Test
    void confirmRewritesTheMarkOfTheReservationAndAnswersOne() {
        Sale sale = preheated(2);
        reserver.reserve(sale, 1, 101, START + 1);
        assertEquals(List.of(1L), confirm(sale, "1", "101"));
        assertEquals("101", redis.getMap(Keys.buyers(sale.id())).get("1"));
        assertEquals(1L, stock.remaining(sale.id()), "the stock is not touched");
    }

    @Test
    void confirmAnswersZeroAndMakesNoMarkForAnAbsentOrAnotherOrder() {
        Sale sale = preheated(2);
        reserver.reserve(sale, 1, 101, START + 1);
        assertEquals(List.of(0L, 0L, 1L), confirm(sale, "1", "999", "2", "102", "1", "101"),
                "each reservation answered alone, in order");
        assertEquals("101", redis.getMap(Keys.buyers(sale.id())).get("1"));
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("2"), "no mark is made up");
        assertEquals(Set.of("999", "102"), fenced(sale), "the orders found without their mark are fenced, not 101");
    }

    /** A purchase.lua call whose answer was lost, asked about, and only then run: the copy that arrives late. */
    @Test
    void aLatePurchaseOfAnOrderConfirmFoundUnreservedReservesNothing() {
        Sale sale = preheated(2);
        assertEquals(List.of(0L), confirm(sale, "1", "101"), "no mark: the attempt answers 503 holding nothing");
        DependencyUnavailable late = assertThrows(DependencyUnavailable.class,
                batch(sale, 1, 101, START + 1).getFirst()::get);
        assertTrue(late.getMessage().contains("reserved nothing"), late.getMessage());
        assertEquals(2L, stock.remaining(sale.id()), "the stock is unchanged");
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("1"), "no buyer mark");
        assertFalse(redis.getKeys().countExists(Keys.bucket(sale.id(), 1)) > 0, "not even a token was taken");
        assertEquals(new PurchaseOutcome.Queued("102"), reserver.reserve(sale, 1, 102, START + 2),
                "the buyer's retry is a new order id, which no fence refuses");
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void aLateBatchReservesForNoneOfItsFencedOrdersAndFindsItsReservationsAgain() {
        Sale sale = preheated(3);
        reserver.reserve(sale, 1, 101, START + 1);
        assertEquals(List.of(1L, 0L), confirm(sale, "1", "101", "2", "201"));
        List<Decision> late = batch(sale, 1, 101, START + 1, 2, 201, START + 1, 3, 301, START + 1);
        assertEquals(new PurchaseOutcome.Queued("101"), late.get(0).get(), "its own reservation, found again");
        assertThrows(DependencyUnavailable.class, late.get(1)::get);
        assertEquals(new PurchaseOutcome.Queued("301"), late.get(2).get(), "an order never fenced reserves");
        assertEquals(1L, stock.remaining(sale.id()));
        assertEquals(Map.of("1", "101", "3", "301"),
                redis.getMap(Keys.buyers(sale.id()), StringCodec.INSTANCE).readAllMap());
    }

    @Test
    void aFenceIsTrimmedOnceOlderThanItsKeepAndTheFencesKeyExpires() {
        Sale sale = preheated(2);
        long keep = 60_000;
        confirmAt(sale, START, keep, "1", "101");
        long ttl = redis.getKeys().remainTimeToLive(Keys.fenced(sale.id()));
        assertTrue(ttl > 0 && ttl <= keep, "the fences' key expires keep after the last fence: " + ttl);
        confirmAt(sale, START + keep + 1, keep, "2", "201");
        assertEquals(Set.of("201"), fenced(sale), "the fence older than keep is gone");
        assertEquals(new PurchaseOutcome.Queued("101"), reserver.reserve(sale, 1, 101, START + keep + 2));
    }

    private List<Object> confirm(Sale sale, String... userOrderPairs) {
        return confirmAt(sale, START + 100, 3_600_000, userOrderPairs);
    }

    private List<Object> confirmAt(Sale sale, long now, long keep, String... userOrderPairs) {
        List<Object> args = new ArrayList<>(List.of(Long.toString(now), Long.toString(keep)));
        args.addAll(List.of(userOrderPairs));
        return scripts.list(Script.CONFIRM, Keys.confirm(sale.id()), args.toArray());
    }

    private Set<String> fenced(Sale sale) {
        return Set.copyOf(redis.<String>getScoredSortedSet(Keys.fenced(sale.id()), StringCodec.INSTANCE).readAll());
    }

    @Test
    void conserveChangesNothingWhenRemainingAndBuyersAlreadyAddUp() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 1, 101, START + 1);
        assertEquals(new StockChange(4, 4), stock.conserve(sale));
        assertEquals(4L, stock.remaining(sale.id()));
    }

    @Test
    void conserveSetsRemainingToTheTotalMinusTheRecordedBuyers() {
        Sale sale = preheated(5);
        reserver.reserve(sale, 1, 101, START + 1);
        marks.put(sale.id(), 2, 102);
        assertEquals(new StockChange(4, 3), stock.conserve(sale), "a mark put back takes its unit");
        redis.getAtomicLong(Keys.stock(sale.id())).set(0);
        assertEquals(new StockChange(0, 3), stock.conserve(sale), "a lost unit comes back");
        assertEquals(3L, stock.remaining(sale.id()));
    }

    @Test
    void conserveNeverSetsRemainingBelowZero() {
        Sale sale = preheated(1);
        marks.put(sale.id(), 1, 101);
        marks.put(sale.id(), 2, 102);
        assertEquals(new StockChange(1, 0), stock.conserve(sale));
        assertEquals(0L, stock.remaining(sale.id()));
    }

    @Test
    void conserveAnswersMinusOneAndCreatesNothingWhenTheStockKeyIsAbsent() {
        Sale sale = preheated(3);
        redis.getKeys().delete(Keys.stock(sale.id()));
        assertEquals(new StockChange(-1, -1), stock.conserve(sale));
        assertNull(stock.remaining(sale.id()), "a sale to rebuild is not conserved into existence");
    }

    @Test
    void scriptsRecoverFromNoscriptAfterAScriptFlush() {
        Sale sale = preheated(2);
        redis.getScript().scriptFlush();
        assertInstanceOf(PurchaseOutcome.Queued.class, reserver.reserve(sale, 1, 101, START + 1));
    }
}
