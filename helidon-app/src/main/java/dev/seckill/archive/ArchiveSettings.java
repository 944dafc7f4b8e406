package dev.seckill.archive;

import io.helidon.config.Config;

import java.time.Duration;

/**
 * {@code seckill.archive.*}: how often a pass runs ({@code interval-ms}, 0 = off on this instance), how long after
 * its end a sale whose orders are not all final keeps its keys anyway ({@code retention-seconds}), how long its keys
 * linger once archived ({@code linger-seconds}), and how far back a pass looks for ended sales
 * ({@code look-back-hours}). The grace after the end is reconcile's ({@code seckill.reconcile.grace-seconds}): a
 * purchase that began before the end, or its Kafka send, is over by then.
 */
public record ArchiveSettings(Duration interval, Duration retention, Duration linger, Duration lookBack,
                              Duration grace) {

    public static ArchiveSettings from(Config archive, Duration grace) {
        return new ArchiveSettings(Duration.ofMillis(archive.get("interval-ms").asLong().orElse(60_000L)),
                Duration.ofSeconds(archive.get("retention-seconds").asLong().orElse(86_400L)),
                Duration.ofSeconds(archive.get("linger-seconds").asLong().orElse(600L)),
                Duration.ofHours(archive.get("look-back-hours").asLong().orElse(168L)), grace);
    }

    public boolean enabled() {
        return interval.toMillis() > 0;
    }
}
