package dev.seckill.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polling with a deadline: tests wait for conditions, never for fixed times. */
public final class Await {

    private static final long POLL_MS = 50;

    private Await() {
    }

    /** Polls until the condition holds; fails with {@code what} when the deadline passes first. */
    public static void until(Duration timeout, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what
                        + (last == null ? "" : " (last error: " + last + ")"), last);
            }
            pause();
        }
    }

    /** Polls until the supplier returns a non-null value and returns it. */
    public static <T> T value(Duration timeout, Supplier<T> supplier, String what) {
        Object[] box = new Object[1];
        until(timeout, () -> (box[0] = supplier.get()) != null, what);
        @SuppressWarnings("unchecked")
        T t = (T) box[0];
        return t;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }
}
