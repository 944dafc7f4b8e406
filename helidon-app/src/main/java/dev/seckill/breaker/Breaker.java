package dev.seckill.breaker;

import dev.seckill.failure.DependencyUnavailable;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import org.apache.kafka.common.KafkaException;
import org.redisson.client.RedisException;

import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One dependency's circuit breaker (resilience4j's state machine): closed, it lets calls through and counts their
 * failures; open, it refuses at once with {@link BreakerOpen}; after the wait it half-opens and lets a few probes
 * through. Only failures of the dependency itself count (see {@link #isOutage}): a business refusal, missing keys or
 * a reservation its replicas did not confirm say nothing about whether the dependency answers.
 */
public final class Breaker implements Outcomes {

    private final String name;
    private final CircuitBreaker breaker;
    private final Clock clock;

    /**
     * @param halfOpensByItself true in the service (a scheduler half-opens it after the wait, so an idle instance
     *        does not report a dependency open for ever); false in unit tests, where the first call after the wait
     *        half-opens it on the test's clock
     */
    public Breaker(String name, BreakerSettings settings, Clock clock, boolean halfOpensByItself) {
        this.name = name;
        this.clock = clock;
        this.breaker = CircuitBreaker.of(name, CircuitBreakerConfig.custom()
                .slidingWindow(settings.window(), settings.window(), SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(settings.failureRate())
                .waitDurationInOpenState(settings.openWait())
                .permittedNumberOfCallsInHalfOpenState(settings.halfOpenCalls())
                // No limit on the time half-open: resilience4j would open an idle half-open breaker again after it,
                // so an instance without traffic would flap between open and half-open and report DEGRADED.
                .automaticTransitionFromOpenToHalfOpenEnabled(halfOpensByItself)
                .recordException(Breaker::isOutage)
                .clock(clock)
                .build());
    }

    /** A failure of the dependency: its client's exception, or ours wrapping one (a cause is the client's). */
    static boolean isOutage(Throwable e) {
        if (e instanceof DependencyUnavailable d) {
            return d.getCause() != null && !(d instanceof BreakerOpen);
        }
        return e instanceof RedisException || e instanceof KafkaException || e instanceof SQLException;
    }

    public String name() {
        return name;
    }

    /** Calls the dependency when the breaker lets it, and records how the call ended. */
    public <T> T call(Supplier<T> call) {
        admit();
        return measured(call);
    }

    /**
     * Takes a permit without calling yet; the caller then either {@link #record}s the call or {@link #release}s the
     * permit when it turned out not to need the dependency.
     *
     * @throws BreakerOpen when the breaker is open (or half-open with its probes all taken)
     */
    public void admit() {
        if (!breaker.tryAcquirePermission()) {
            throw new BreakerOpen(name);
        }
    }

    /** Gives back a permit taken by {@link #admit()} for work that did not call the dependency after all. */
    public void release() {
        breaker.releasePermission();
    }

    @Override
    public <T> T record(Supplier<T> call) {
        return measured(call);
    }

    private <T> T measured(Supplier<T> call) {
        long start = clock.millis();
        try {
            T result = call.get();
            breaker.onSuccess(clock.millis() - start, TimeUnit.MILLISECONDS);
            return result;
        } catch (RuntimeException | Error e) {
            breaker.onError(clock.millis() - start, TimeUnit.MILLISECONDS, e);
            throw e;
        }
    }

    /** Open: refusing every call (half-open, it is already probing, so it is not reported as open). */
    public boolean isOpen() {
        CircuitBreaker.State s = breaker.getState();
        return s == CircuitBreaker.State.OPEN || s == CircuitBreaker.State.FORCED_OPEN;
    }

    public CircuitBreaker.State state() {
        return breaker.getState();
    }

    /** The underlying state machine, for the metrics' listeners. */
    CircuitBreaker circuit() {
        return breaker;
    }
}
