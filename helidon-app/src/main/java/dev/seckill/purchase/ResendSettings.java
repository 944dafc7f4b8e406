package dev.seckill.purchase;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.resend} config section: how often the {@link Resender} runs on this instance
 * ({@code interval-ms}; 0 turns it off here: then only buyers' retries and reconcile settle failed sends), and how
 * long after an order's last send attempt it is sent again ({@code after-ms}). The defaults are application.yaml's.
 */
public record ResendSettings(Duration interval, Duration after) {

    public static ResendSettings from(Config resend) {
        return new ResendSettings(Setting.duration(resend.get("interval-ms"), ChronoUnit.MILLIS),
                Setting.duration(resend.get("after-ms"), ChronoUnit.MILLIS));
    }

    public boolean enabled() {
        return interval.isPositive();
    }
}
