package dev.seckill.expiry;

import dev.seckill.sale.UnitReturn;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Map;

/** The expiry's meters: orders expired, units given back to Redis by outcome, and how long a pass takes. */
public final class ExpiryMetrics {

    private final Counter expired;
    private final Map<UnitReturn.Kind, Counter> released = new EnumMap<>(UnitReturn.Kind.class);
    private final Counter failed;
    private final Timer pass;

    public ExpiryMetrics(MeterRegistry registry) {
        expired = Counter.builder("seckill.orders.expired")
                .description("Orders that expired unpaid (their unit went back to the DB stock)").register(registry);
        for (UnitReturn.Kind k : UnitReturn.Kind.values()) {
            released.put(k, Counter.builder("seckill.units.released").tag("outcome", k.name())
                    .description("release.lua answers for expired orders (RETURNED: the unit is on sale again)")
                    .register(registry));
        }
        failed = Counter.builder("seckill.expiry.failed")
                .description("Expiry passes stopped by a failing database or Redis (the next pass resumes)")
                .register(registry);
        // Buckets so that passes of several instances combine (the default 1 ms .. 30 s range fits a pass).
        pass = Timer.builder("seckill.expiry.pass").description("Time of one expiry pass")
                .publishPercentileHistogram().register(registry);
    }

    void expired(int n) {
        expired.increment(n);
    }

    void released(UnitReturn.Kind kind) {
        released.get(kind).increment();
    }

    void failed() {
        failed.increment();
    }

    Timer pass() {
        return pass;
    }
}
