package dev.seckill.line;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.line} config section (application.yaml holds the defaults and why they are so).
 *
 * @param secret   signs line tickets; the edge holds the same one to check them (at least 32 bytes)
 * @param interval how often a line moves on, and how often each edge learns its progress
 * @param window   admissions outstanding a line that follows the service keeps
 */
public record LineSettings(String secret, Duration interval, int window) {

    public LineSettings {
        if (interval.toMillis() < 100 || interval.toMillis() > 10_000) {
            throw new IllegalArgumentException("seckill.line.interval-ms must be from 100 to 10000");
        }
        if (window < 1) {
            throw new IllegalArgumentException("seckill.line.window must be at least 1");
        }
    }

    public static LineSettings from(Config line) {
        return new LineSettings(Setting.text(line.get("secret")),
                Setting.duration(line.get("interval-ms"), ChronoUnit.MILLIS), Setting.integer(line.get("window")));
    }
}
