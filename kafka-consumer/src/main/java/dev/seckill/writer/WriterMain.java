package dev.seckill.writer;

import io.helidon.config.Config;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;

/** Starts the batch writer: Kafka to MySQL, with health and metrics over HTTP. */
public final class WriterMain {

    private WriterMain() {
    }

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        Config config = Config.create();
        WebServer.builder()
                .config(config.get("server"))
                .addFeature(ObserveFeature.builder()
                        .addObserver(HealthObserver.builder().details(true).build())
                        .addObserver(MetricsObserver.builder().build())
                        .build())
                .build()
                .start();
    }
}
