package dev.seckill.breaker;

import dev.seckill.testkit.TestClock;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.FakeReserver;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.redis.ShardMap;
import dev.seckill.sale.Sale;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BreakerTest {

    private static final BreakerSettings SETTINGS = new BreakerSettings(4, 50, Duration.ofSeconds(5), 2);
    private static final Sale SALE = new Sale(1, "s", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));

    private final TestClock clock = new TestClock(Instant.parse("2030-01-01T00:00:00Z"));
    private final AtomicInteger calls = new AtomicInteger();

    private static DependencyUnavailable outage() {
        return new DependencyUnavailable("failed to reach it", new IOException("connection refused"));
    }

    private Breaker breaker() {
        return new Breaker("redis", SETTINGS, clock, false);
    }

    /** A slot map the test moves: sale -> slot, slot -> master (a failover hands a slot to another master). */
    private static final class FakeShards implements ShardMap {
        final Map<Long, Integer> slotOfSale = new HashMap<>();
        final Map<Integer, String> masterOfSlot = new ConcurrentHashMap<>();

        @Override
        public String masterOf(long saleId) {
            return masterOfSlot.get(slotOfSale.get(saleId));
        }

        @Override
        public Set<String> masters() {
            return Set.copyOf(masterOfSlot.values());
        }
    }

    private static final Sale A = new Sale(11, "a", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));
    private static final Sale B = new Sale(12, "b", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));
    private static final Sale C = new Sale(13, "c", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));

    /** A and B on two slots of one master, C on another master; SALE alone on the first (a single server). */
    private final FakeShards shards = new FakeShards();

    {
        shards.slotOfSale.putAll(Map.of(SALE.id(), 0, A.id(), 1, B.id(), 2, C.id(), 3));
        shards.masterOfSlot.putAll(Map.of(0, "m1:6379", 1, "m1:6379", 2, "m1:6379", 3, "m2:6379"));
    }

    private ShardBreakers shardBreakers() {
        return new ShardBreakers(shards, SETTINGS, clock, false, b -> { });
    }

    private GuardedReserver guarded(ShardBreakers redis, FakeReserver reserver) {
        return new GuardedReserver(reserver, redis, new Breaker("kafka", SETTINGS, clock, false));
    }

    /** Four outages of sale's purchases through the guard: the window is 4, so its breaker opens. */
    private void failFourTimes(GuardedReserver guarded, FakeReserver reserver, Sale sale) {
        reserver.fail(outage());
        for (int i = 0; i < 4; i++) {
            long order = 100 + i;
            assertThrows(DependencyUnavailable.class, () -> guarded.reserve(sale, 7, order, 0));
        }
        reserver.reset();
    }

    private void failing(Breaker b) {
        assertThrows(DependencyUnavailable.class, () -> b.call(() -> {
            calls.incrementAndGet();
            throw outage();
        }));
    }

    private void succeeding(Breaker b) {
        b.call(calls::incrementAndGet);
    }

    @Test
    void aRunOfFailuresOpensItAndThenItRefusesWithoutCalling() {
        Breaker b = breaker();
        succeeding(b);
        succeeding(b);
        failing(b);
        failing(b);
        assertTrue(b.isOpen(), "2 of the last 4 failed: 50%");
        int before = calls.get();
        BreakerOpen refused = assertThrows(BreakerOpen.class, () -> b.call(calls::incrementAndGet));
        assertEquals("redis", refused.dependency());
        assertInstanceOf(DependencyUnavailable.class, refused, "answered as any 503");
        assertEquals(before, calls.get(), "the dependency was not called");
    }

    @Test
    void businessAnswersAndFailuresWithoutACauseDoNotCount() {
        Breaker b = breaker();
        for (int i = 0; i < 8; i++) {
            assertThrows(DependencyUnavailable.class, () -> b.call(() -> {
                throw new DependencyUnavailable("the keys of sale 1 are missing");
            }));
        }
        assertFalse(b.isOpen());
    }

    @Test
    void afterTheWaitItHalfOpensAndClosesWhenTheProbesSucceed() {
        Breaker b = breaker();
        for (int i = 0; i < 4; i++) {
            failing(b);
        }
        assertTrue(b.isOpen());
        clock.advance(Duration.ofSeconds(6));
        succeeding(b);
        assertEquals(CircuitBreaker.State.HALF_OPEN, b.state());
        assertFalse(b.isOpen(), "probing is not reported as open");
        succeeding(b);
        assertEquals(CircuitBreaker.State.CLOSED, b.state());
    }

    @Test
    void aFailedProbeOpensItAgain() {
        Breaker b = breaker();
        for (int i = 0; i < 4; i++) {
            failing(b);
        }
        clock.advance(Duration.ofSeconds(6));
        failing(b);
        failing(b);
        assertTrue(b.isOpen());
    }

    @Test
    void transitionsAndStateAreMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Breaker b = breaker();
        BreakerMetrics.bind(b, registry);
        for (int i = 0; i < 4; i++) {
            failing(b);
        }
        assertThrows(BreakerOpen.class, () -> b.call(calls::incrementAndGet));
        assertEquals(1.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value());
        assertEquals(1.0, registry.get("seckill.breaker.transitions").tags("breaker", "redis", "from", "CLOSED",
                "to", "OPEN").counter().count());
        assertEquals(1.0, registry.get("seckill.breaker.refused").tag("breaker", "redis").counter().count());
    }

    @Test
    void anOpenKafkaBreakerRefusesBeforeRedisTakesAUnit() {
        Breaker kafka = new Breaker("kafka", SETTINGS, clock, false);
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = new GuardedReserver(redis, shardBreakers(), kafka);
        for (int i = 0; i < 4; i++) {
            assertThrows(DependencyUnavailable.class, () -> kafka.record(() -> {
                throw outage();
            }));
        }
        assertThrows(BreakerOpen.class, () -> guarded.reserve(SALE, 7, 1, 0));
        assertEquals(0, redis.reserveCalls(), "no unit taken while Kafka is known down");
    }

    @Test
    void aHalfOpenKafkaBreakerLetsOnlyItsProbesReserveAndARefusalGivesThePermitBack() {
        Breaker kafka = new Breaker("kafka", SETTINGS, clock, false);
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = new GuardedReserver(redis, shardBreakers(), kafka);
        for (int i = 0; i < 4; i++) {
            assertThrows(DependencyUnavailable.class, () -> kafka.record(() -> {
                throw outage();
            }));
        }
        clock.advance(Duration.ofSeconds(6));
        redis.answer(new PurchaseOutcome.SoldOut(false));
        for (int i = 0; i < 5; i++) {
            assertInstanceOf(PurchaseOutcome.SoldOut.class, guarded.reserve(SALE, 7, i, 0),
                    "a refusal needs no send, so it keeps no probe permit");
        }
        redis.reset();
        guarded.reserve(SALE, 7, 10, 0);
        guarded.reserve(SALE, 8, 11, 0);
        assertThrows(BreakerOpen.class, () -> guarded.reserve(SALE, 9, 12, 0),
                "two probes reserved; a third waits for their sends");
        assertEquals(2, redis.reserveCalls());
    }

    @Test
    void anOpenRedisBreakerGivesTheKafkaPermitBack() {
        Breaker kafka = new Breaker("kafka", SETTINGS, clock, false);
        ShardBreakers redisBreakers = shardBreakers();
        for (int i = 0; i < 4; i++) {
            failing(redisBreakers.of(SALE.id()));
        }
        GuardedReserver guarded = new GuardedReserver(new FakeReserver(), redisBreakers, kafka);
        assertThrows(BreakerOpen.class, () -> guarded.reserve(SALE, 7, 1, 0));
        assertEquals(CircuitBreaker.State.CLOSED, kafka.state());
    }

    /** Sales of one shard share its breaker; another shard's sales sell on. */
    @Test
    void failuresOfOneSaleOpenTheBreakerOfEverySaleOfItsShardAndOfNoOther() {
        ShardBreakers redisBreakers = shardBreakers();
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = guarded(redisBreakers, redis);
        failFourTimes(guarded, redis, A);
        int before = redis.reserveCalls();
        assertThrows(BreakerOpen.class, () -> guarded.reserve(B, 8, 200, 0),
                "B is on A's shard: refused at once, though B itself never failed");
        assertEquals(before, redis.reserveCalls(), "Redis was not called for B");
        assertTrue(redisBreakers.isOpen(), "reported as Redis open");
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(C, 9, 300, 0), "C's shard sells on");
        assertSame(redisBreakers.of(A.id()), redisBreakers.of(B.id()));
        assertNotSame(redisBreakers.of(A.id()), redisBreakers.of(C.id()));
    }

    /** A failover: a replica promoted, the client's slot map names it for the shard's slots. */
    @Test
    void aShardsNewMasterStartsClosedForAllItsSalesTogether() {
        ShardBreakers redisBreakers = shardBreakers();
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = guarded(redisBreakers, redis);
        failFourTimes(guarded, redis, A);
        assertThrows(BreakerOpen.class, () -> guarded.reserve(B, 8, 200, 0));
        shards.masterOfSlot.put(1, "m3:6379");
        shards.masterOfSlot.put(2, "m3:6379");
        shards.masterOfSlot.put(0, "m3:6379");
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(A, 7, 201, 0), "no wait: the new master");
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(B, 8, 202, 0), "and all its sales");
        assertFalse(redisBreakers.isOpen(), "the dead master serves no slot: it is not Redis open");
        failFourTimes(guarded, redis, B);
        assertThrows(BreakerOpen.class, () -> guarded.reserve(A, 7, 203, 0), "one breaker for the new master too");
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(C, 9, 300, 0));
    }

    /** A single server that comes back at its address: the shard's probes close it for every sale of it. */
    @Test
    void aShardsBreakerClosesForAllItsSalesTogetherWhenItsProbesSucceed() {
        ShardBreakers redisBreakers = shardBreakers();
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = guarded(redisBreakers, redis);
        failFourTimes(guarded, redis, A);
        clock.advance(Duration.ofSeconds(6));
        guarded.reserve(B, 8, 200, 0);
        guarded.reserve(SALE, 9, 201, 0);
        assertEquals(CircuitBreaker.State.CLOSED, redisBreakers.of(A.id()).state(),
                "B's and SALE's probes closed A's breaker: A sells again without a probe of its own");
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(A, 7, 202, 0));
    }

    @Test
    void redisIsReportedAsOneBreakerInTheMetrics() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Breakers breakers = Breakers.create(SETTINGS, clock, registry, shards);
        assertEquals(0.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value());
        Breaker sale = breakers.redis().of(SALE.id());
        for (int i = 0; i < 10; i++) {
            failing(sale);
        }
        assertEquals(1.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value());
        assertEquals(java.util.List.of("redis"), breakers.open());
        for (int slot = 0; slot < 3; slot++) {
            shards.masterOfSlot.put(slot, "m3:6379");
        }
        breakers.redis().of(SALE.id());
        assertEquals(0.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value(),
                "after the failover only the serving masters count");
        assertEquals(java.util.List.of(), breakers.open());
    }
}
