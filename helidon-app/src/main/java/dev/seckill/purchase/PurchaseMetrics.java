package dev.seckill.purchase;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Purchase meters: answers by outcome, script and Kafka latency, purchases in flight, failed compensations,
 * reservations their replicas did not confirm, failed sends whose unit stays held, attempts per purchase.lua call.
 */
public final class PurchaseMetrics {

    private static final String ANSWERS = "seckill.purchases";
    private static final String UNAVAILABLE = "UNAVAILABLE";

    private final MeterRegistry registry;
    private final Map<String, Counter> answers = new ConcurrentHashMap<>();
    private final Timer script;
    private final Timer kafka;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter compensationFailures;
    private final Counter notReplicated;
    private final Counter unsent;
    private final DistributionSummary batchSizes;

    public PurchaseMetrics(MeterRegistry registry) {
        this.registry = registry;
        // Histogram buckets, not client-side percentiles: percentiles of two instances cannot be combined, buckets
        // can (histogram_quantile over the sum of every instance's _bucket). The bounds keep the series few: a
        // script answers in well under a millisecond when healthy and times out at redis.timeout-ms; a send gives
        // up at kafka.delivery-timeout-ms.
        script = Timer.builder("seckill.redis.script")
                .description("purchase.lua latency of one attempt, with its wait for the sale's call in flight")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(2)).register(registry);
        kafka = Timer.builder("seckill.kafka.send").description("Order publish latency until the broker's ack")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
        registry.gauge("seckill.purchases.inflight", inFlight);
        compensationFailures = Counter.builder("seckill.compensations.failed")
                .description("Units that could not be given back after a failed publish (reconcile repairs them)")
                .register(registry);
        notReplicated = Counter.builder("seckill.reservations.unreplicated")
                .description("Reservations given back and answered 503 because fewer replicas than redis.replica-acks "
                        + "confirmed them within redis.replica-timeout-ms")
                .register(registry);
        unsent = Counter.builder("seckill.sends.unsent")
                .description("Order sends to Kafka that failed: the unit stays held for a resend by the buyer's retry, "
                        + "or reconcile releases it")
                .register(registry);
        // count = purchase.lua calls, sum = attempts decided: sum / count is the attempts one call decides.
        batchSizes = DistributionSummary.builder("seckill.purchase.batch.size")
                .description("Purchase attempts decided by one purchase.lua call (redis.coalesce-max bounds it)")
                .baseUnit("attempts").register(registry);
        // The 503 series exists at 0 from the start, so the share of 503s (dashboard, alert) reads 0, not nothing,
        // until the first one.
        answer(UNAVAILABLE);
    }

    /** Counts one answer, tagged by the outcome. */
    public void answered(PurchaseOutcome outcome) {
        answer(outcome.tag()).increment();
    }

    /** Counts one 503: a dependency failed (not an outcome, so it has a tag of its own). */
    public void unavailable() {
        answer(UNAVAILABLE).increment();
    }

    /** A counter appears with its first answer; Micrometer hands back the registered one after that. */
    private Counter answer(String tag) {
        return answers.computeIfAbsent(tag, t -> Counter.builder(ANSWERS).tag("outcome", t)
                .description("Purchase answers by outcome").register(registry));
    }

    public Timer script() {
        return script;
    }

    public Timer kafka() {
        return kafka;
    }

    public AtomicInteger inFlight() {
        return inFlight;
    }

    public void compensationFailed() {
        compensationFailures.increment();
    }

    public void notReplicated() {
        notReplicated.increment();
    }

    public void unsent() {
        unsent.increment();
    }

    /** One purchase.lua call decided {@code attempts} attempts. */
    public void batch(int attempts) {
        batchSizes.record(attempts);
    }
}
