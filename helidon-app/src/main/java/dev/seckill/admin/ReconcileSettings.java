package dev.seckill.admin;

import dev.seckill.config.Setting;
import dev.seckill.purchase.DeliveryTimeout;
import io.helidon.config.Config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The {@code seckill.reconcile} config section: the grace after which a reservation without an order is released
 * (never shorter than a Kafka send can take, or an event on its way could land on a unit given back), and how often
 * every current sale is reconciled ({@code interval}, seconds; 0: only on request). The defaults are
 * application.yaml's.
 */
public record ReconcileSettings(Duration grace, Duration interval) {

    public static ReconcileSettings from(Config reconcile, DeliveryTimeout delivery) {
        Duration grace = Setting.duration(reconcile.get("grace-seconds"), ChronoUnit.SECONDS);
        if (grace.compareTo(delivery.settled()) < 0) {
            throw new IllegalArgumentException("seckill.reconcile.grace-seconds must exceed kafka.delivery-timeout-ms");
        }
        return new ReconcileSettings(grace, Setting.duration(reconcile.get("interval"), ChronoUnit.SECONDS));
    }

    /** True when this instance reconciles every current sale by itself. */
    public boolean periodic() {
        return interval.isPositive();
    }
}
