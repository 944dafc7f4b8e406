package dev.seckill.protection;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.protection} config section: how long an issued challenge may be solved and redeemed
 * for a path, and how long that path buys. Both 1-3600 s; application.yaml holds the defaults and why they are so.
 */
public record ProtectionSettings(Duration challengeTtl, Duration pathTtl) {

    private static final long MAX_SECONDS = 3600;

    public ProtectionSettings {
        check(challengeTtl, "challenge-ttl-seconds");
        check(pathTtl, "path-ttl-seconds");
    }

    public static ProtectionSettings from(Config protection) {
        return new ProtectionSettings(Setting.duration(protection.get("challenge-ttl-seconds"), ChronoUnit.SECONDS),
                Setting.duration(protection.get("path-ttl-seconds"), ChronoUnit.SECONDS));
    }

    private static void check(Duration ttl, String key) {
        if (ttl.toSeconds() < 1 || ttl.toSeconds() > MAX_SECONDS) {
            throw new IllegalArgumentException("seckill.protection." + key + " must be from 1 to " + MAX_SECONDS
                    + " seconds");
        }
    }
}
