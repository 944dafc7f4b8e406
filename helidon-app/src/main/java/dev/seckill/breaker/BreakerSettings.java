package dev.seckill.breaker;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * How the breakers judge a dependency ({@code seckill.breaker.*}, the same for Redis, Kafka and the database): over
 * the last {@code window} calls, at least {@code failure-rate} percent failed opens the breaker; it then refuses for
 * {@code wait-ms} and lets {@code half-open-calls} probes through, which close it again when they succeed. The
 * defaults are application.yaml's.
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
        return new BreakerSettings(Setting.integer(breaker.get("window")),
                (float) Setting.decimal(breaker.get("failure-rate")),
                Setting.duration(breaker.get("wait-ms"), ChronoUnit.MILLIS),
                Setting.integer(breaker.get("half-open-calls")));
    }
}
