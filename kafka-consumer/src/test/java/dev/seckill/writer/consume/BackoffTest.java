package dev.seckill.writer.consume;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BackoffTest {

    @Test
    void waitDoublesFromInitialUpToTheCap() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500));
        assertEquals(100, b.next().toMillis());
        assertEquals(200, b.next().toMillis());
        assertEquals(400, b.next().toMillis());
        assertEquals(500, b.next().toMillis());
        assertEquals(500, b.next().toMillis());
    }

    @Test
    void resetStartsOverAtTheInitialWait() {
        Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));
        b.next();
        b.next();
        b.reset();
        assertEquals(100, b.next().toMillis());
    }

    @Test
    void capBelowInitialIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
