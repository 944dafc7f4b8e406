package dev.seckill.bench;

import java.time.Duration;

/** The wait a refusal asks for: its body's {@code retryAfter} (whole seconds, as its Retry-After), else 1 s. */
final class RetryAfter {

    private static final long DEFAULT = Duration.ofSeconds(1).toNanos();

    private RetryAfter() {
    }

    static long nanos(Answer a) {
        String s = Bodies.field(a.body(), "retryAfter");
        if (s == null) {
            return DEFAULT;
        }
        try {
            return Math.max(1, Long.parseLong(s)) * 1_000_000_000L;
        } catch (NumberFormatException e) {
            return DEFAULT;
        }
    }
}
