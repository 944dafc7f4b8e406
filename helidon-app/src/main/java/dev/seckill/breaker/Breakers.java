package dev.seckill.breaker;

import dev.seckill.redis.ShardMap;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The three breakers of the service, one per dependency, built from {@code seckill.breaker} with their meters. Where
 * each one sits (docs/contract.md, circuit breakers): Redis around purchase.lua (one per shard), Kafka before the reservation (no
 * unit is taken while Kafka is known down) and around the send, the database around the sale and order reads.
 */
public record Breakers(ShardBreakers redis, Breaker kafka, Breaker db) {

    /** @param shards which Redis master serves each sale: Redis has one breaker per master */
    public static Breakers create(BreakerSettings settings, Clock clock, MeterRegistry registry, ShardMap shards) {
        Breakers b = new Breakers(BreakerMetrics.bind(shards, settings, clock, registry),
                new Breaker("kafka", settings, clock, true), new Breaker("db", settings, clock, true));
        Stream.of(b.kafka, b.db).forEach(x -> BreakerMetrics.bind(x, registry));
        return b;
    }

    /** The names of the breakers that are open now, in a fixed order (redis, kafka, db). */
    public List<String> open() {
        List<String> open = new ArrayList<>();
        if (redis.isOpen()) {
            open.add(redis.name());
        }
        Stream.of(kafka, db).filter(Breaker::isOpen).forEach(x -> open.add(x.name()));
        return open;
    }
}
