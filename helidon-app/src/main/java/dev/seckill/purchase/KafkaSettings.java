package dev.seckill.purchase;

import dev.seckill.config.Setting;
import io.helidon.config.Config;

import java.time.temporal.ChronoUnit;

/**
 * The {@code kafka} config section, read once: the brokers and topic the orders go to, how long a send may take,
 * how long the producer lingers to fill a batch, and the writer's consumer group (whose lag reconcile and the stats
 * wait on). The defaults, and why each was chosen, are application.yaml's.
 */
public record KafkaSettings(String bootstrap, String topic, DeliveryTimeout deliveryTimeout, int lingerMs,
                            String writerGroup) {

    public KafkaSettings {
        if (lingerMs < 0) {
            throw new IllegalArgumentException("kafka.linger-ms must be 0 or more, not " + lingerMs);
        }
    }

    public static KafkaSettings from(Config kafka) {
        return new KafkaSettings(Setting.text(kafka.get("bootstrap")), Setting.text(kafka.get("topic")),
                new DeliveryTimeout(Setting.duration(kafka.get("delivery-timeout-ms"), ChronoUnit.MILLIS)),
                Setting.integer(kafka.get("linger-ms")), Setting.text(kafka.get("writer-group")));
    }
}
