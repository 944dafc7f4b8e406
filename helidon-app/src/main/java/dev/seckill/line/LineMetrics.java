package dev.seckill.line;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.ToDoubleFunction;

/**
 * A waiting room's meters, tagged by sale (only sales with a line have them): its length, admissions so far, those
 * that lapsed, the admission rate, each as this instance last read the line; and the joins this instance answered.
 */
final class LineMetrics {

    private final MeterRegistry registry;
    private final Counter joins;
    private final ConcurrentMap<Long, Reading> readings = new ConcurrentHashMap<>();

    /** The last progress read of one sale's line and when (for the rate). */
    private record Reading(LineProgress progress, long at) {
    }

    LineMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.joins = Counter.builder("seckill.line.joins").description("Joins of a waiting room answered")
                .register(registry);
    }

    void joined() {
        joins.increment();
    }

    void read(long saleId, LineProgress p, long now) {
        if (readings.put(saleId, new Reading(p, now)) == null) {
            gauge("seckill.line.length", "Buyers in the line, pre-queue and after", saleId, r -> r.progress().total());
            gauge("seckill.line.admitted", "Buyers the line has admitted so far", saleId,
                    r -> r.progress().admitted());
            gauge("seckill.line.lapsed", "Admissions that lapsed unused", saleId, r -> r.progress().lapsed());
            gauge("seckill.line.admit.rate", "Admissions a second over the last ten seconds", saleId,
                    r -> r.progress().rate(r.at()));
        }
    }

    private void gauge(String name, String description, long saleId, ToDoubleFunction<Reading> value) {
        Gauge.builder(name, readings, m -> {
            Reading r = m.get(saleId);
            return r == null ? 0 : value.applyAsDouble(r);
        }).description(description).tag("sale", Long.toString(saleId)).register(registry);
    }
}
