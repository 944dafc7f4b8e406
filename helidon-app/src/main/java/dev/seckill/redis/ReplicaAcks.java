package dev.seckill.redis;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * How durable a reservation must be before its purchase is answered 202: {@code required} replicas of the sale's
 * master hold the script's writes, waited for at most {@code timeout} ({@code redis.replica-acks},
 * {@code redis.replica-timeout-ms}). Redis replicates asynchronously, so without this a master that dies right
 * after the script can take a sold unit and its buyer mark with it, and the promoted replica sells them again.
 * {@code required} 0: no wait (a single Redis, or a cluster that accepts that window).
 */
public record ReplicaAcks(int required, Duration timeout) {

    /**
     * Default wait. A healthy replica acknowledges in well under a millisecond on a LAN (tens of ms at p99 on a
     * loaded 2-core test box), and WAIT returns as soon as it does, so the timeout is paid only when a replica is
     * missing or stalled: then it bounds how long each purchase of that shard holds a connection before its 503.
     * Far below what a purchase may already spend on Kafka (delivery timeout 5 s) and the edge's read timeout.
     */
    static final long DEFAULT_TIMEOUT_MS = 500;

    public ReplicaAcks {
        if (required < 0) {
            throw new IllegalArgumentException("redis.replica-acks must be 0 or more, not " + required);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            // WAIT with 0 ms blocks forever: a replica that never answers would hold the purchase for good.
            throw new IllegalArgumentException("redis.replica-timeout-ms must be positive, not " + timeout.toMillis());
        }
    }

    public static ReplicaAcks from(Config redis) {
        return new ReplicaAcks(redis.get("replica-acks").asInt().orElse(0),
                Duration.ofMillis(redis.get("replica-timeout-ms").asLong().orElse(DEFAULT_TIMEOUT_MS)));
    }

    /** No wait at all. */
    public static ReplicaAcks none() {
        return new ReplicaAcks(0, Duration.ofMillis(DEFAULT_TIMEOUT_MS));
    }

    /** True when a reservation must wait for replicas. */
    public boolean wanted() {
        return required > 0;
    }

    /** True when {@code acked} replicas are enough. */
    public boolean satisfiedBy(int acked) {
        return acked >= required;
    }
}
