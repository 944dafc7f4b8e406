package dev.seckill.http;

import dev.seckill.failure.DependencyUnavailable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeadlineTest {

    @Test
    void withoutADeadlineTheWorkRunsOnTheCallersThread() {
        Thread caller = Thread.currentThread();
        assertSame(caller, Deadline.NONE.await("work", Thread::currentThread));
        assertEquals(Long.MAX_VALUE, Deadline.NONE.remainingMillis());
        assertFalse(Deadline.NONE.bounded());
    }

    @Test
    void workThatEndsInTimeGivesItsResultOrItsOwnException() {
        Deadline d = Deadline.in(Duration.ofSeconds(30));
        assertEquals("done", d.await("work", () -> "done"));
        IllegalArgumentException thrown = new IllegalArgumentException("bad");
        assertSame(thrown, assertThrows(IllegalArgumentException.class, () -> d.await("work", () -> {
            throw thrown;
        })));
    }

    @Test
    void pastTheDeadlineTheCallerIsAnsweredUnavailableAndTheWorkGoesOnToItsEnd() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ended = new CountDownLatch(1);
        AtomicBoolean endedBeforeAnswer = new AtomicBoolean();
        DependencyUnavailable late = assertThrows(DependencyUnavailable.class,
                () -> Deadline.in(Duration.ofMillis(50)).await("purchase of sale 7", () -> {
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    ended.countDown();
                    return "decided";
                }));
        endedBeforeAnswer.set(ended.getCount() == 0);
        assertTrue(late.getMessage().contains("purchase of sale 7"), late.getMessage());
        assertFalse(endedBeforeAnswer.get(), "the answer waited for the work");
        release.countDown();
        assertTrue(ended.await(30, TimeUnit.SECONDS), "the work was stopped instead of going on");
    }

    @Test
    void aDeadlineAlreadyPastRunsNothing() throws Exception {
        Deadline d = Deadline.in(Duration.ofMillis(1));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (d.remainingMillis() > 0 && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertEquals(0, d.remainingMillis());
        AtomicReference<String> ran = new AtomicReference<>();
        assertThrows(DependencyUnavailable.class, () -> d.await("work", () -> {
            ran.set("ran");
            return 1;
        }));
        assertEquals(null, ran.get(), "work started past its deadline");
    }
}
