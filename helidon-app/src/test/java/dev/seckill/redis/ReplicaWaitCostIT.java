package dev.seckill.redis;

import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.sale.Sale;
import dev.seckill.sale.SaleStock;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What waiting for a replica costs a purchase (issue 13): the same buyers reserve through the service's reserver on
 * one sale of a Redis Cluster, once without WAIT and once with {@code replica-acks} 1, alternating in one run.
 * It reports the rates and their ratio, for reservations and for refusals (a refusal's bucket write is waited for
 * too: the WAIT rides in the script's batch), and asserts only the outcomes, never a time.
 */
@Tag("cluster")
@EnabledIfEnvironmentVariable(named = "SECKILL_REDIS_NODES", matches = ".+")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicaWaitCostIT {

    private static final int BUYERS = Integer.getInteger("seckill.wait-cost.buyers", 2_000);
    private static final int IN_FLIGHT = 64;
    private static final int ROUNDS = 3;
    private static final long START = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final AtomicLong IDS = new AtomicLong(8_000_000_000L + System.nanoTime() % 1_000_000_000L);

    private RedissonClient redis;
    private SaleStock stock;
    private RedisStockReserver plain;
    private RedisStockReserver synced;

    @BeforeAll
    void connect() {
        redis = RedisClients.connect(null, System.getenv("SECKILL_REDIS_NODES"), Stack.get().redisPassword());
        ScriptRunner scripts = new ScriptRunner(redis);
        scripts.loadAll();
        stock = new SaleStock(redis, scripts);
        // A limiter that never refuses: this measures the stock path, not the buckets.
        LimiterSettings limiter = new LimiterSettings(1_000_000, 1_000_000);
        plain = new RedisStockReserver(scripts, limiter, ReplicaAcks.none());
        synced = new RedisStockReserver(scripts, limiter, new ReplicaAcks(1, Duration.ofMillis(500)));
    }

    @AfterAll
    void close() {
        redis.shutdown();
    }

    private Sale sale(int units) {
        Sale sale = new Sale(IDS.incrementAndGet(), "cost", 100, units, Instant.ofEpochMilli(START - 1),
                Instant.ofEpochMilli(START + 3_600_000));
        assertTrue(stock.preheat(sale, units));
        return sale;
    }

    /** Buyers/s of {@code BUYERS} distinct buyers, {@value #IN_FLIGHT} at a time, each outcome checked. */
    private double rate(RedisStockReserver reserver, Sale sale, Predicate<PurchaseOutcome> expected) throws Exception {
        Semaphore slots = new Semaphore(IN_FLIGHT);
        List<Future<PurchaseOutcome>> answers = new ArrayList<>(BUYERS);
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < BUYERS; i++) {
                long user = i + 1;
                slots.acquire();
                answers.add(pool.submit(() -> {
                    try {
                        return reserver.reserve(sale, user, IDS.incrementAndGet(), START + 1);
                    } finally {
                        slots.release();
                    }
                }));
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        for (Future<PurchaseOutcome> a : answers) {
            assertTrue(expected.test(a.get()), a.get().toString());
        }
        return BUYERS / seconds;
    }

    private static double median(List<Double> xs) {
        return xs.stream().sorted().toList().get(xs.size() / 2);
    }

    @Test
    void reportsWhatTheWaitCostsReservationsAndRefusals() throws Exception {
        rate(plain, sale(BUYERS), o -> o instanceof PurchaseOutcome.Queued);  // warm-up: JIT, pools, scripts
        List<Double> queuedPlain = new ArrayList<>();
        List<Double> queuedSynced = new ArrayList<>();
        List<Double> refusedPlain = new ArrayList<>();
        List<Double> refusedSynced = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Sale a = sale(BUYERS);
            Sale b = sale(BUYERS);
            queuedPlain.add(rate(plain, a, o -> o instanceof PurchaseOutcome.Queued));
            queuedSynced.add(rate(synced, b, o -> o instanceof PurchaseOutcome.Queued));
            assertEquals(0L, stock.remaining(a.id()));
            assertEquals(0L, stock.remaining(b.id()));
            Sale gone = sale(0);
            refusedPlain.add(rate(plain, gone, o -> o instanceof PurchaseOutcome.SoldOut));
            refusedSynced.add(rate(synced, gone, o -> o instanceof PurchaseOutcome.SoldOut));
        }
        System.out.printf(Locale.ROOT, "replica wait cost, %d buyers x %d rounds, %d in flight, one sale (one shard):%n"
                        + "  reserved  acks=0 %8.0f/s  acks=1 %8.0f/s  ratio %.2f%n"
                        + "  refused   acks=0 %8.0f/s  acks=1 %8.0f/s  ratio %.2f%n",
                BUYERS, ROUNDS, IN_FLIGHT,
                median(queuedPlain), median(queuedSynced), median(queuedSynced) / median(queuedPlain),
                median(refusedPlain), median(refusedSynced), median(refusedSynced) / median(refusedPlain));
    }
}
