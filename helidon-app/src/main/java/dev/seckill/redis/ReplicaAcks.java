package dev.seckill.redis;

import java.time.Duration;

/**
 * How durable a reservation must be before its purchase is answered 202: {@code required} replicas of the sale's
 * master hold the script's writes, waited for at most {@code timeout} ({@code redis.replica-acks},
 * {@code redis.replica-timeout-ms}). Redis replicates asynchronously, so without this a master that dies right
 * after the script can take a sold unit and its buyer mark with it, and the promoted replica sells them again.
 * {@code required} 0: no wait (a single Redis, or a cluster that accepts that window). Read by {@link RedisSettings};
 * application.yaml says why the timeout's default is what it is.
 */
public record ReplicaAcks(int required, Duration timeout) {

    public ReplicaAcks {
        if (required < 0) {
            throw new IllegalArgumentException("redis.replica-acks must be 0 or more, not " + required);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            // WAIT with 0 ms blocks forever: a replica that never answers would hold the purchase for good.
            throw new IllegalArgumentException("redis.replica-timeout-ms must be positive, not " + timeout.toMillis());
        }
    }

    /** No wait at all (the timeout is never used: nothing is waited for). */
    public static ReplicaAcks none() {
        return new ReplicaAcks(0, Duration.ofMillis(1));
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
