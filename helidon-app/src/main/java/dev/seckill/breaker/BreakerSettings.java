package dev.seckill.breaker;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * How the breakers judge a dependency ({@code seckill.breaker.*}, the same for Redis, Kafka and the database): over
 * the last {@code window} calls, at least {@code failure-rate} percent failed opens the breaker; it then refuses for
 * {@code wait-ms} and lets {@code half-open-calls} probes through, which close it again when they succeed.
 */
public record BreakerSettings(int window, float failureRate, Duration openWait, int halfOpenCalls) {

    public BreakerSettings {
        if (window < 1 || halfOpenCalls < 1) {
            throw new IllegalArgumentException("seckill.breaker.window and half-open-calls must be at least 1");
        }
        if (failureRate <= 0 || failureRate > 100) {
            throw new IllegalArgumentException("seckill.breaker.failure-rate must be in (0, 100]");
        }
        if (openWait.toMillis() < 1) {
            throw new IllegalArgumentException("seckill.breaker.wait-ms must be at least 1");
        }
    }

    public static BreakerSettings from(Config breaker) {
        return new BreakerSettings(breaker.get("window").asInt().orElse(10),
                breaker.get("failure-rate").asDouble().orElse(50.0).floatValue(),
                Duration.ofMillis(breaker.get("wait-ms").asLong().orElse(5000L)),
                breaker.get("half-open-calls").asInt().orElse(3));
    }
}
