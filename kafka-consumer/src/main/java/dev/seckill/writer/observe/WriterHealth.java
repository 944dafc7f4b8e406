package dev.seckill.writer.observe;

import dev.seckill.health.Probes;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.observe.health.HealthObserver;

import javax.sql.DataSource;
import java.util.function.BooleanSupplier;

/**
 * {@code /observe/health}: UP when the database answers (readiness: without it nothing gets written), the
 * consumer loop is alive and polling, and the outbox relay thread runs (liveness: a dead loop or relay needs a
 * restart).
 */
public final class WriterHealth {

    private WriterHealth() {
    }

    public static HealthObserver observer(DataSource db, BooleanSupplier consumerAlive, BooleanSupplier relayAlive) {
        return HealthObserver.builder()
                .details(true)
                .useSystemServices(false)
                .addCheck(Probes.check(Probes.database(db)), HealthCheckType.READINESS, "db")
                .addCheck(Probes.check(consumerAlive::getAsBoolean), HealthCheckType.LIVENESS, "consumer")
                .addCheck(Probes.check(relayAlive::getAsBoolean), HealthCheckType.LIVENESS, "relay")
                .build();
    }
}
