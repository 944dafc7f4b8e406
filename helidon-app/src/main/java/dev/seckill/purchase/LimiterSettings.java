package dev.seckill.purchase;

/** The per-user token bucket of purchase.lua: refill rate (tokens/s) and capacity. */
public record LimiterSettings(double ratePerSecond, int burst) {

    public LimiterSettings {
        if (ratePerSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("limiter rate must be > 0 and burst >= 1");
        }
    }
}
