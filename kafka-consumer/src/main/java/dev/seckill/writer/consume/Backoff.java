package dev.seckill.writer.consume;

import java.time.Duration;

/**
 * Bounded exponential backoff: initial, 2x, 4x, ... up to max, then max until reset. Deterministic (no jitter):
 * one writer instance owns a partition, so there is no herd of clients to spread out.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private Duration next;

    public Backoff(Duration initial, Duration max) {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("need 0 < initial <= max, got " + initial + " and " + max);
        }
        this.initial = initial;
        this.max = max;
        this.next = initial;
    }

    /** The wait before the next retry; each call doubles the one after, up to max. */
    public Duration next() {
        Duration now = next;
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(max) > 0 ? max : doubled;
        return now;
    }

    /** After a success: the next failure starts over at the initial wait. */
    public void reset() {
        next = initial;
    }
}
