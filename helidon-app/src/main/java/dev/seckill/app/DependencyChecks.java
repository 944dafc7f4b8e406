package dev.seckill.app;

import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.observe.health.HealthObserver;
import org.apache.kafka.clients.admin.Admin;
import org.redisson.api.RedissonClient;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Readiness checks for the three dependencies the purchase path needs: Redis, Kafka and the database. */
final class DependencyChecks {

    private DependencyChecks() {
    }

    static HealthObserver observer(RedissonClient redis, Admin kafka, DataSource db) {
        return HealthObserver.builder()
                .details(true)
                .useSystemServices(false)
                .addCheck(check(() -> redis.getKeys().count() >= 0), HealthCheckType.READINESS, "redis")
                .addCheck(check(() -> !kafka.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty()),
                        HealthCheckType.READINESS, "kafka")
                .addCheck(check(() -> {
                    try (Connection c = db.getConnection()) {
                        return c.isValid(2);
                    }
                }), HealthCheckType.READINESS, "db")
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
