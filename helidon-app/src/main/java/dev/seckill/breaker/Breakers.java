package dev.seckill.breaker;

import io.helidon.config.Config;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/**
 * The three breakers of the service, one per dependency, built from {@code seckill.breaker} with their meters. Where
 * each one sits (docs/contract.md, circuit breakers): Redis around purchase.lua, Kafka before the reservation (no
 * unit is taken while Kafka is known down) and around the send, the database around the sale and order reads.
 */
public record Breakers(Breaker redis, Breaker kafka, Breaker db) {

    public static Breakers create(Config breaker, Clock clock, MeterRegistry registry) {
        BreakerSettings settings = BreakerSettings.from(breaker);
        Breakers b = new Breakers(new Breaker("redis", settings, clock, true),
                new Breaker("kafka", settings, clock, true), new Breaker("db", settings, clock, true));
        b.all().forEach(x -> BreakerMetrics.bind(x, registry));
        return b;
    }

    /** The names of the breakers that are open now, in a fixed order (redis, kafka, db). */
    public List<String> open() {
        return all().filter(Breaker::isOpen).map(Breaker::name).toList();
    }

    private Stream<Breaker> all() {
        return Stream.of(redis, kafka, db);
    }
}
