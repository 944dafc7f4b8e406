package dev.seckill.breaker;

import java.time.Duration;

/**
 * How the breakers judge a dependency (the same for Redis, Kafka and the database): over the last {@code window}
 * calls, at least {@code failureRate} percent failed opens the breaker; it then refuses for {@code openWait} and lets
 * {@code halfOpenCalls} probes through, which close it again when they succeed. Not configuration: the service runs
 * with {@link #STANDARD}; tests build their own.
 */
public record BreakerSettings(int window, float failureRate, Duration openWait, int halfOpenCalls) {

    /**
     * Half of the last 10 calls failing is an outage, not bad luck (a purchase pays one call to each dependency, so
     * 10 calls are a few milliseconds of traffic); 5 s is a Redis failover or a broker's fencing with room to spare,
     * and 3 probes that succeed say it is over.
     */
    public static final BreakerSettings STANDARD = new BreakerSettings(10, 50, Duration.ofSeconds(5), 3);

    public BreakerSettings {
        if (window < 1 || halfOpenCalls < 1) {
            throw new IllegalArgumentException("window and halfOpenCalls must be at least 1");
        }
        if (failureRate <= 0 || failureRate > 100) {
            throw new IllegalArgumentException("failureRate must be in (0, 100]");
        }
        if (openWait.toMillis() < 1) {
            throw new IllegalArgumentException("openWait must be at least 1 ms");
        }
    }

}
