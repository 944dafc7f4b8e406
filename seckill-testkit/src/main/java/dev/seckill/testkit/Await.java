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

    /**
     * Polls until the condition holds or the deadline passes, and says which, never failing: for tools that go on
     * either way. A condition that throws counts as not holding yet; an interrupt ends the wait (false, flag kept).
     */
    public static boolean poll(Duration timeout, BooleanSupplier condition) {
        return poll(timeout, Duration.ofMillis(POLL_MS), condition);
    }

    /** As {@link #poll(Duration, BooleanSupplier)}, asking every {@code every} (for a condition that costs a call). */
    public static boolean poll(Duration timeout, Duration every, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return true;
                }
            } catch (RuntimeException e) {
                // Not yet: the next poll asks again.
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(every);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
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
