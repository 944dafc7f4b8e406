package dev.seckill.breaker;

import dev.seckill.redis.ShardMap;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;

/**
 * A breaker's meters: {@code seckill.breaker.state{breaker}} (0 closed, 1 open, 2 half-open, 3 other) and
 * {@code seckill.breaker.transitions{breaker,from,to}}, one count per change of state; calls it refused show as
 * {@code seckill.breaker.refused{breaker}}.
 */
final class BreakerMetrics {

    private BreakerMetrics() {
    }

    static void bind(Breaker breaker, MeterRegistry registry) {
        CircuitBreaker circuit = breaker.circuit();
        Gauge.builder("seckill.breaker.state", circuit, c -> code(c.getState()))
                .tag("breaker", breaker.name())
                .description("Circuit breaker state: 0 closed, 1 open, 2 half-open")
                .register(registry);
        bindEvents(breaker, registry);
    }

    /** Redis's per-shard breakers as one: the state gauge shows the most severe; each shard's breaker counts events. */
    static ShardBreakers bind(ShardMap shards, BreakerSettings settings, Clock clock, MeterRegistry registry) {
        ShardBreakers breakers = new ShardBreakers(shards, settings, clock, true, b -> bindEvents(b, registry));
        Gauge.builder("seckill.breaker.state", breakers, ShardBreakers::stateCode)
                .tag("breaker", breakers.name())
                .description("Circuit breaker state: 0 closed, 1 open, 2 half-open (Redis: the most severe of the "
                        + "breakers of the masters serving slots now)")
                .register(registry);
        return breakers;
    }

    /** The transitions and refusals of one breaker; breakers of one name share these counters. */
    private static void bindEvents(Breaker breaker, MeterRegistry registry) {
        CircuitBreaker circuit = breaker.circuit();
        Counter refused = Counter.builder("seckill.breaker.refused").tag("breaker", breaker.name())
                .description("Calls refused at once because the breaker was open").register(registry);
        circuit.getEventPublisher()
                .onStateTransition(e -> Counter.builder("seckill.breaker.transitions")
                        .tag("breaker", breaker.name())
                        .tag("from", e.getStateTransition().getFromState().name())
                        .tag("to", e.getStateTransition().getToState().name())
                        .description("Circuit breaker state changes").register(registry).increment())
                .onCallNotPermitted(e -> refused.increment());
    }

    static int code(CircuitBreaker.State s) {
        return switch (s) {
            case CLOSED -> 0;
            case OPEN, FORCED_OPEN -> 1;
            case HALF_OPEN -> 2;
            default -> 3;
        };
    }
}
