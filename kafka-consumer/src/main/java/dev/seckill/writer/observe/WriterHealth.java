package dev.seckill.writer.observe;

import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.observe.health.HealthObserver;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code /observe/health}: UP when the database answers (readiness: without it nothing gets written) and the
 * consumer loop is alive and polling (liveness: a dead loop needs a restart).
 */
public final class WriterHealth {

    private WriterHealth() {
    }

    public static HealthObserver observer(DataSource db, BooleanSupplier consumerAlive) {
        return HealthObserver.builder()
                .details(true)
                .useSystemServices(false)
                .addCheck(check(() -> {
                    try (Connection c = db.getConnection()) {
                        return c.isValid(2);
                    }
                }), HealthCheckType.READINESS, "db")
                .addCheck(check(consumerAlive::getAsBoolean), HealthCheckType.LIVENESS, "consumer")
                .build();
    }

    private static Supplier<HealthCheckResponse> check(Probe probe) {
        return () -> {
            try {
                return HealthCheckResponse.builder().status(probe.ok()).build();
            } catch (Exception e) {
                return HealthCheckResponse.builder().status(false).detail("error", String.valueOf(e.getMessage())).build();
            }
        };
    }

    @FunctionalInterface
    private interface Probe {
        boolean ok() throws Exception;
    }
}
