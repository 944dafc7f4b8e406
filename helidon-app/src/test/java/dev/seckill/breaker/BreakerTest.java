package dev.seckill.breaker;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.FakeReserver;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.sale.Sale;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BreakerTest {

    private static final BreakerSettings SETTINGS = new BreakerSettings(4, 50, Duration.ofSeconds(5), 2);
    private static final Sale SALE = new Sale(1, "s", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));

    /** A clock the test moves. */
    private static final class StepClock extends Clock {
        Instant now = Instant.parse("2030-01-01T00:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final StepClock clock = new StepClock();
    private final AtomicInteger calls = new AtomicInteger();

    private static DependencyUnavailable outage() {
        return new DependencyUnavailable("failed to reach it", new IOException("connection refused"));
    }

    private Breaker breaker() {
        return new Breaker("redis", SETTINGS, clock, false);
    }

    private SaleBreakers saleBreakers() {
        return new SaleBreakers(SETTINGS, clock, false, b -> { });
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
        clock.now = clock.now.plusSeconds(6);
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
        clock.now = clock.now.plusSeconds(6);
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
        GuardedReserver guarded = new GuardedReserver(redis, saleBreakers(), kafka);
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
        GuardedReserver guarded = new GuardedReserver(redis, saleBreakers(), kafka);
        for (int i = 0; i < 4; i++) {
            assertThrows(DependencyUnavailable.class, () -> kafka.record(() -> {
                throw outage();
            }));
        }
        clock.now = clock.now.plusSeconds(6);
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
        SaleBreakers redisBreakers = saleBreakers();
        for (int i = 0; i < 4; i++) {
            failing(redisBreakers.of(SALE.id()));
        }
        GuardedReserver guarded = new GuardedReserver(new FakeReserver(), redisBreakers, kafka);
        assertThrows(BreakerOpen.class, () -> guarded.reserve(SALE, 7, 1, 0));
        assertEquals(CircuitBreaker.State.CLOSED, kafka.state());
    }

    /** A sale lives on one shard; the failover of another shard must not refuse it. */
    @Test
    void redisFailuresOfOneSaleOpenOnlyThatSalesBreaker() {
        Sale other = new Sale(2, "t", 100, 10, Instant.EPOCH, Instant.EPOCH.plusSeconds(3600));
        SaleBreakers redisBreakers = saleBreakers();
        FakeReserver redis = new FakeReserver();
        GuardedReserver guarded = new GuardedReserver(redis, redisBreakers, new Breaker("kafka", SETTINGS, clock,
                false));
        redis.fail(outage());
        for (int i = 0; i < 4; i++) {
            long order = i;
            assertThrows(DependencyUnavailable.class, () -> guarded.reserve(SALE, 7, order, 0));
        }
        assertThrows(BreakerOpen.class, () -> guarded.reserve(SALE, 7, 9, 0));
        assertTrue(redisBreakers.isOpen(), "reported as Redis open");
        redis.reset();
        assertInstanceOf(PurchaseOutcome.Queued.class, guarded.reserve(other, 7, 10, 0), "the other sale sells on");
    }

    @Test
    void redisIsReportedAsOneBreakerInTheMetrics() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Breakers breakers = Breakers.create(SETTINGS, clock, registry);
        assertEquals(0.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value());
        Breaker sale = breakers.redis().of(SALE.id());
        for (int i = 0; i < 10; i++) {
            failing(sale);
        }
        assertEquals(1.0, registry.get("seckill.breaker.state").tag("breaker", "redis").gauge().value());
        assertEquals(java.util.List.of("redis"), breakers.open());
    }
}
