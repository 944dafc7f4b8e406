package dev.seckill.health;

import io.helidon.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProbesTest {

    @Test
    void aProbeThatAnswersTrueIsUpAndFalseIsDown() {
        assertEquals(HealthCheckResponse.Status.UP, Probes.check(() -> true).get().status());
        assertEquals(HealthCheckResponse.Status.DOWN, Probes.check(() -> false).get().status());
    }

    @Test
    void aProbeThatThrowsIsDownWithTheErrorAsDetail() {
        HealthCheckResponse r = Probes.check(() -> {
            throw new IllegalStateException("connection refused");
        }).get();
        assertEquals(HealthCheckResponse.Status.DOWN, r.status());
        assertEquals("connection refused", r.details().get("error"));
    }
}
