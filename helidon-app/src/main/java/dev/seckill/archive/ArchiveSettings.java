package dev.seckill.archive;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * {@code seckill.archive.*}: how often a pass runs ({@code interval-ms}, 0 = off on this instance), how long after
 * its end a sale whose orders are not all final keeps its keys anyway ({@code retention-seconds}), and how long its
 * keys linger once archived ({@code linger-seconds}). A pass looks back {@link #LOOK_BACK} for ended sales. The grace
 * after the end is reconcile's ({@code seckill.reconcile.grace-seconds}): a purchase that began before the end, or
 * its Kafka send, is over by then. The defaults are application.yaml's.
 */
public record ArchiveSettings(Duration interval, Duration retention, Duration linger, Duration grace) {

    /**
     * How far back a pass looks for ended sales: a week, far past the default retention (a day), so a sale that
     * ended while no instance archived (passes off, or the service down for days) is still found.
     */
    public static final Duration LOOK_BACK = Duration.ofHours(168);

    public static ArchiveSettings from(Config archive, Duration grace) {
        return new ArchiveSettings(Setting.duration(archive.get("interval-ms"), ChronoUnit.MILLIS),
                Setting.duration(archive.get("retention-seconds"), ChronoUnit.SECONDS),
                Setting.duration(archive.get("linger-seconds"), ChronoUnit.SECONDS), grace);
    }

    public boolean enabled() {
        return interval.toMillis() > 0;
    }
}
