package dev.seckill.app;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.db.Database;
import dev.seckill.redis.RedisClients;
import io.helidon.config.Config;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.redisson.api.RedissonClient;

import java.util.Map;

/** Starts the service: config, clients, routing, server. */
public final class Main {

    private static final System.Logger LOG = System.getLogger(Main.class.getName());

    private Main() {
    }

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        Config config = Config.create();

        HikariDataSource db = Database.pool(config.get("db"));
        Database.migrate(db);
        RedissonClient redis = RedisClients.create(config.get("redis"));
        Admin kafkaAdmin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.get("kafka.bootstrap").asString().get(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000));
        // Observers first: metrics configures the global registry, and meters must be registered after that.
        ObserveFeature observe = ObserveFeature.builder()
                .addObserver(DependencyChecks.observer(redis, kafkaAdmin, db))
                .addObserver(MetricsObserver.builder().build())
                .build();
        Wiring wiring = Wiring.create(config, redis, kafkaAdmin, db);

        WebServer server = WebServer.builder()
                .config(config.get("server"))
                .addFeature(observe)
                .routing(wiring::routing)
                .build()
                .start();
        if (!server.isRunning()) {
            // Helidon logs a failed bind and returns: a service nobody can reach must not linger.
            LOG.log(System.Logger.Level.ERROR, "failed to start the HTTP server; exiting");
            System.exit(1);
        }

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            wiring.close();
            kafkaAdmin.close();
            redis.shutdown();
            db.close();
        }, "seckill-shutdown"));
        LOG.log(System.Logger.Level.INFO, "seckill service listening on http://127.0.0.1:" + server.port());
    }
}
