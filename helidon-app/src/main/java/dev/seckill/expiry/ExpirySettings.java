package dev.seckill.expiry;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.expiry} config section: how often this instance lapses unpaid orders ({@code interval-ms}; 0
 * turns it off here) and how many it expires per transaction ({@code batch}). The defaults are application.yaml's.
 */
public record ExpirySettings(Duration interval, int batch) {

    public static ExpirySettings from(Config expiry) {
        return new ExpirySettings(Setting.duration(expiry.get("interval-ms"), ChronoUnit.MILLIS),
                Setting.integer(expiry.get("batch")));
    }

    public boolean enabled() {
        return interval.isPositive();
    }
}
