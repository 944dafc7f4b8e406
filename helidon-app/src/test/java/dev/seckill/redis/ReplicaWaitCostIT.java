package dev.seckill.redis;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.BuyerMarks;
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
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What waiting for a replica costs a purchase: the same buyers reserve through the service's reserver on
 * one sale of a Redis Cluster, once without WAIT and once with {@code replica-acks} 1, alternating in one run.
 * It reports the rates, latencies and ratios, for reservations (which wait for confirm.lua and WAIT) and refusals
 * (which wait for nothing), and asserts only the outcomes, never a time; a call that timed out on an overloaded box
 * is counted as unavailable, not failed. The test command's cluster phase runs it small (300 buyers a round), so
 * its outcomes are checked on every run; {@code -Dseckill.wait-cost.buyers=2000} makes it a measurement.
 */
@Tag("cluster")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicaWaitCostIT {

    private static final int BUYERS = Integer.getInteger("seckill.wait-cost.buyers", 300);
    private static final int IN_FLIGHT = 64;
    private static final int ROUNDS = 5;
    private static final long START = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final AtomicLong IDS = new AtomicLong(8_000_000_000L + System.nanoTime() % 1_000_000_000L);

    private RedissonClient redis;
    private SaleStock stock;
    private RedisStockReserver plain;
    private RedisStockReserver synced;

    @BeforeAll
    void connect() {
        redis = RedisClients.connect(null, ClusterNodes.seeds(), Stack.get().redisPassword());
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

    /** One timed run: buyers per second, each call's latency in microseconds, and the calls that got a 503. */
    private record Run(double rate, long[] micros, int unavailable) {

        long percentile(double p) {
            long[] sorted = micros.clone();
            Arrays.sort(sorted);
            return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
        }
    }

    /** {@code BUYERS} distinct buyers, {@value #IN_FLIGHT} at a time, each outcome checked. */
    private Run run(RedisStockReserver reserver, Sale sale, Predicate<PurchaseOutcome> expected) throws Exception {
        Semaphore slots = new Semaphore(IN_FLIGHT);
        List<Future<PurchaseOutcome>> answers = new ArrayList<>(BUYERS);
        long[] micros = new long[BUYERS];
        long t0 = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < BUYERS; i++) {
                int n = i;
                slots.acquire();
                answers.add(pool.submit(() -> {
                    long start = System.nanoTime();
                    try {
                        return reserver.reserve(sale, n + 1, IDS.incrementAndGet(), START + 1);
                    } finally {
                        micros[n] = (System.nanoTime() - start) / 1_000;
                        slots.release();
                    }
                }));
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        int unavailable = 0;
        for (Future<PurchaseOutcome> a : answers) {
            try {
                assertTrue(expected.test(a.get()), a.get().toString());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof DependencyUnavailable)) {
                    throw e;
                }
                unavailable++;
            }
        }
        return new Run(BUYERS / seconds, micros, unavailable);
    }

    /** The run of the median rate among rounds. */
    private static Run median(List<Run> runs) {
        return runs.stream().sorted(Comparator.comparingDouble(Run::rate)).toList().get(runs.size() / 2);
    }

    private static String line(String what, List<Run> plain, List<Run> synced) {
        Run a = median(plain);
        Run b = median(synced);
        int unavailable = Stream.concat(plain.stream(), synced.stream()).mapToInt(Run::unavailable).sum();
        return String.format(Locale.ROOT, "  %-9s acks=0 %7.0f/s p50 %5d us p99 %6d us | acks=1 %7.0f/s p50 %5d us "
                        + "p99 %6d us | rate ratio %.2f | 503s %d%n", what, a.rate(), a.percentile(0.5),
                a.percentile(0.99), b.rate(), b.percentile(0.5), b.percentile(0.99), b.rate() / a.rate(), unavailable);
    }

    @Test
    void reportsWhatTheWaitCostsReservationsAndRefusals() throws Exception {
        run(plain, sale(BUYERS), o -> o instanceof PurchaseOutcome.Queued);  // warm-up: JIT, pools, scripts
        List<Run> queuedPlain = new ArrayList<>();
        List<Run> queuedSynced = new ArrayList<>();
        List<Run> refusedPlain = new ArrayList<>();
        List<Run> refusedSynced = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            Sale a = sale(BUYERS);
            Sale b = sale(BUYERS);
            queuedPlain.add(run(plain, a, o -> o instanceof PurchaseOutcome.Queued));
            queuedSynced.add(run(synced, b, o -> o instanceof PurchaseOutcome.Queued));
            for (Sale s : List.of(a, b)) {
                assertEquals(BUYERS, stock.remaining(s.id()) + new BuyerMarks(redis).count(s.id()), "every unit is left or taken");
            }
            Sale gone = sale(0);
            refusedPlain.add(run(plain, gone, o -> o instanceof PurchaseOutcome.SoldOut));
            refusedSynced.add(run(synced, gone, o -> o instanceof PurchaseOutcome.SoldOut));
        }
        System.out.printf(Locale.ROOT, "replica wait cost: %d buyers, %d in flight, one sale (one shard), median of %d "
                + "alternating rounds%n%s%s", BUYERS, IN_FLIGHT, ROUNDS,
                line("reserved", queuedPlain, queuedSynced), line("refused", refusedPlain, refusedSynced));
    }
}
