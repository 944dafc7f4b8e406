package dev.seckill.purchase;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Purchase meters: answers by outcome, script and Kafka latency, purchases in flight, failed compensations. */
public final class PurchaseMetrics {

    private final Map<Answer, Counter> answers = new EnumMap<>(Answer.class);
    private final Timer script;
    private final Timer kafka;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Counter compensationFailures;

    /** Every answer a purchase can get, for the outcome tag. */
    public enum Answer {
        QUEUED, ALREADY_PURCHASED, SOLD_OUT, SOLD_OUT_LOCAL, NOT_STARTED, SALE_ENDED, RATE_LIMITED,
        SALE_NOT_FOUND, UNAUTHENTICATED, UNAVAILABLE
    }

    public PurchaseMetrics(MeterRegistry registry) {
        for (Answer a : Answer.values()) {
            answers.put(a, Counter.builder("seckill.purchases").tag("outcome", a.name())
                    .description("Purchase answers by outcome").register(registry));
        }
        script = Timer.builder("seckill.redis.script").description("purchase.lua latency")
                .publishPercentiles(0.5, 0.99).register(registry);
        kafka = Timer.builder("seckill.kafka.send").description("Order publish latency until the broker's ack")
                .publishPercentiles(0.5, 0.99).register(registry);
        registry.gauge("seckill.purchases.inflight", inFlight);
        compensationFailures = Counter.builder("seckill.compensations.failed")
                .description("Units that could not be given back after a failed publish (reconcile repairs them)")
                .register(registry);
    }

    public void answered(Answer a) {
        answers.get(a).increment();
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
}
