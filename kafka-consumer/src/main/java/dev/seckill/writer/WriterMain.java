package dev.seckill.writer;

import dev.seckill.config.Environment;
import dev.seckill.writer.config.WriterSettings;
import dev.seckill.writer.observe.WriterHealth;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import io.micrometer.core.instrument.Metrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the batch writer (Kafka to MySQL) and its health and metrics endpoints. */
public final class WriterMain {

    private static final Logger LOG = LoggerFactory.getLogger(WriterMain.class);

    private WriterMain() {
    }

    public static void main(String[] args) {
        Config config = Environment.config(() -> ConfigSources.classpath("application.yaml").build(), System.getenv());
        WriterSettings settings;
        try {
            settings = WriterSettings.from(config);
        } catch (IllegalArgumentException e) {
            System.err.println("seckill writer refuses to start: " + e.getMessage());
            System.exit(2);
            return;
        }

        // Built first: it sets up Helidon's Micrometer provider (and its meter filters) before any meter exists.
        MetricsObserver metrics = MetricsObserver.builder().build();
        // Meters on the global registry are what that provider serves at /observe/metrics.
        Writer writer = Writer.start(settings, Metrics.globalRegistry);
        WebServer server = WebServer.builder()
                .config(config.get("server"))
                .addFeature(ObserveFeature.builder()
                        .addObserver(WriterHealth.observer(writer.dataSource(), writer.loop()::alive,
                                writer::relayAlive))
                        .addObserver(metrics)
                        .build())
                .build()
                .start();
        if (!server.isRunning()) {
            // Helidon logs a failed bind and returns: without health the writer cannot be supervised, so stop.
            writer.close();
            System.exit(1);
        }

        // SIGTERM: stop the loop first (its batch is abandoned uncommitted, or committed if it was done), then HTTP.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            writer.close();
            server.stop();
        }, "writer-shutdown"));
        LOG.info("seckill writer consuming " + settings.kafka().topic() + " as group "
                + settings.kafka().groupId() + "; health on http://127.0.0.1:" + server.port() + "/observe/health");
    }
}
