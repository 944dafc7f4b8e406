package dev.seckill.redis;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.api.RFuture;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.misc.CompletableFutureWrapper;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A purchase whose script answer is lost (the client timed out, yet Redis ran it, or never got it): the reserver
 * asks Redis whether the unit is the buyer's, so the buyer hears the truth. Redis is the stack's; only the loss of
 * the answer is staged, by a client that drops the next script reply after (or instead of) running it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LostAnswerIT {

    private RedissonClient redis;
    private SaleStock stock;
    private RedisStockReserver reserver;
    /** The next script call runs in Redis and its answer is then lost. */
    private final AtomicBoolean loseAfterRunning = new AtomicBoolean();
    /** The next script call never reaches Redis. */
    private final AtomicBoolean loseUnsent = new AtomicBoolean();
    /**
     * The next script call gets no answer, not even a timeout (a future Redisson never completes), and is kept in
     * {@link #stalled} to reach Redis later.
     */
    private final AtomicBoolean stall = new AtomicBoolean();
    /** The stalled call: its bytes, delivered late (or Redisson's resend of it). */
    private final AtomicReference<Callable<Object>> stalled = new AtomicReference<>();

    @BeforeAll
    void connect() {
        redis = StackRedis.connect(RedisClients::connect);
        // A short limit: the stalled call is given up on after it, as a lost answer.
        ScriptRunner scripts = new ScriptRunner(losingAnswers(redis), Duration.ofMillis(300));
        scripts.loadAll();
        stock = new SaleStock(redis, new ScriptRunner(redis));
        reserver = new RedisStockReserver(scripts, new LimiterSettings(1.0, 3), ReplicaAcks.none());
    }

    @AfterAll
    void close() {
        redis.shutdown();
    }

    @Test
    void aReservationWhoseAnswerWasLostIsTheBuyersAndQueued() {
        Sale sale = preheated(2);
        loseAfterRunning.set(true);
        assertEquals(new PurchaseOutcome.Queued("801"), reserver.reserve(sale, 8, 801, ScriptContract.START + 1));
        assertEquals("801", redis.getMap(Keys.buyers(sale.id())).get("8"));
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void aScriptThatNeverRanAnswers503AndHoldsNothing() {
        Sale sale = preheated(2);
        loseUnsent.set(true);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> reserver.reserve(sale, 9, 901, ScriptContract.START + 1));
        assertTrue(e.getMessage().contains("reserved nothing"), e.getMessage());
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("9"));
        assertEquals(2L, stock.remaining(sale.id()));
    }

    /**
     * The call is never answered; past the runner's limit it counts as lost, the question finds no mark and the
     * attempt answers 503 holding nothing; then the stalled call reaches Redis. It must take no unit: one taken now
     * would be an order no 202 named.
     */
    @Test
    void aCallThatRunsAfterItsAttemptAnswered503ReservesNothing() throws Exception {
        Sale sale = preheated(2);
        stall.set(true);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> reserver.reserve(sale, 10, 1001, ScriptContract.START + 1));
        assertTrue(e.getMessage().contains("reserved nothing"), e.getMessage());
        stalled.getAndSet(null).call();
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("10"), "no unit taken behind the 503");
        assertEquals(2L, stock.remaining(sale.id()));
        assertEquals(new PurchaseOutcome.Queued("1002"), reserver.reserve(sale, 10, 1002, ScriptContract.START + 2),
                "the buyer's retry, a new order id, gets its unit");
        assertEquals(1L, stock.remaining(sale.id()));
    }

    @Test
    void aLostRefusalStaysARefusalThatHoldsNothing() {
        Sale sale = preheated(1);
        assertEquals(new PurchaseOutcome.Queued("101"), reserver.reserve(sale, 1, 101, ScriptContract.START + 1));
        loseAfterRunning.set(true);
        assertThrows(DependencyUnavailable.class, () -> reserver.reserve(sale, 2, 102, ScriptContract.START + 2));
        assertNull(redis.getMap(Keys.buyers(sale.id())).get("2"));
        assertEquals(0L, stock.remaining(sale.id()));
    }

    private Sale preheated(int units) {
        Sale sale = ScriptContract.sale(units);
        assertTrue(stock.preheat(sale, units));
        return sale;
    }

    /** The client, but its scripts' evalShaAsync honours {@link #loseAfterRunning} and {@link #loseUnsent}. */
    private RedissonClient losingAnswers(RedissonClient real) {
        InvocationHandler client = (proxy, method, args) -> {
            Object result = invoke(real, method, args);
            return method.getName().equals("getScript") ? losing((RScript) result) : result;
        };
        return (RedissonClient) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {RedissonClient.class}, client);
    }

    private RScript losing(RScript real) {
        InvocationHandler script = (proxy, method, args) -> {
            boolean call = method.getName().equals("evalShaAsync");
            if (call && stall.getAndSet(false)) {
                stalled.set(() -> ((RFuture<?>) method.invoke(real, args)).toCompletableFuture().join());
                return new CompletableFutureWrapper<>(new CompletableFuture<>());
            }
            if (call && loseUnsent.getAndSet(false)) {
                return new CompletableFutureWrapper<>(new RedisResponseTimeoutException("staged: the script was never sent"));
            }
            Object result = invoke(real, method, args);
            if (call && loseAfterRunning.getAndSet(false)) {
                ((RFuture<?>) result).toCompletableFuture().join();
                return new CompletableFutureWrapper<>(new RedisResponseTimeoutException("staged: the script ran, its answer was lost"));
            }
            return result;
        };
        return (RScript) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {RScript.class}, script);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
