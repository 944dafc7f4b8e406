package dev.seckill.health;

import io.helidon.health.HealthCheckResponse;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.function.Supplier;

/**
 * Health checks from plain probes, shared by the service and the batch writer: a probe answers true (up), false
 * (down) or throws (down, with the error as the check's detail). The detail is only ever served on an internal
 * listener: the public health answer of the service carries no details.
 */
public final class Probes {

    /** Seconds a database gets to answer the validity check; a slower database counts as down. */
    static final int DB_TIMEOUT_SECONDS = 2;

    private Probes() {
    }

    /** One check of one dependency. */
    @FunctionalInterface
    public interface Probe {
        boolean ok() throws Exception;
    }

    /** The health check of a probe: never throws, a failing probe is a DOWN answer with the error as detail. */
    public static Supplier<HealthCheckResponse> check(Probe probe) {
        return () -> {
            try {
                return HealthCheckResponse.builder().status(probe.ok()).build();
            } catch (Exception e) {
                return HealthCheckResponse.builder().status(false).detail("error", String.valueOf(e.getMessage())).build();
            }
        };
    }

    /** A database is up when a pooled connection passes the driver's validity check in time. */
    public static Probe database(DataSource db) {
        return () -> {
            try (Connection c = db.getConnection()) {
                return c.isValid(DB_TIMEOUT_SECONDS);
            }
        };
    }
}
