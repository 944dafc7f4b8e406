package dev.seckill.purchase;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

/**
 * The {@code seckill.limiter} config section: the per-user token bucket of purchase.lua, refill rate (tokens/s)
 * and capacity. The defaults are application.yaml's.
 */
public record LimiterSettings(double ratePerSecond, int burst) {

    public LimiterSettings {
        if (ratePerSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("limiter rate must be > 0 and burst >= 1");
        }
    }

    public static LimiterSettings from(Config limiter) {
        return new LimiterSettings(Setting.decimal(limiter.get("rate")), Setting.integer(limiter.get("burst")));
    }
}
