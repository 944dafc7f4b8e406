package dev.seckill.app;

import dev.seckill.health.Probes;
import io.helidon.health.HealthCheckType;
import io.helidon.webserver.observe.health.HealthObserver;
import org.apache.kafka.clients.admin.Admin;
import org.redisson.api.RedissonClient;

import javax.sql.DataSource;
import java.util.concurrent.TimeUnit;

/** Readiness checks for the three dependencies the purchase path needs: Redis, Kafka and the database. */
final class DependencyChecks {

    private DependencyChecks() {
    }

    static HealthObserver observer(RedissonClient redis, Admin kafka, DataSource db) {
        return HealthObserver.builder()
                .details(true)
                .useSystemServices(false)
                .addCheck(Probes.check(() -> redis.getKeys().count() >= 0), HealthCheckType.READINESS, "redis")
                .addCheck(Probes.check(() -> !kafka.describeCluster().nodes().get(2, TimeUnit.SECONDS).isEmpty()),
                        HealthCheckType.READINESS, "kafka")
                .addCheck(Probes.check(Probes.database(db)), HealthCheckType.READINESS, "db")
                .build();
    }
}
