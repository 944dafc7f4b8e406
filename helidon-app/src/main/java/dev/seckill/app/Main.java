package dev.seckill.app;

import com.zaxxer.hikari.HikariDataSource;
import dev.seckill.config.ServiceConfig;
import dev.seckill.db.Database;
import dev.seckill.redis.RedisClients;
import io.helidon.config.Config;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import io.helidon.webserver.observe.spi.Observer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/** Starts the service: config and secrets, clients, routing, server. */
public final class Main {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        Config config = ServiceConfig.fromEnvironment(System.getenv());
        Clock clock = Clock.systemUTC();
        ServiceSettings settings;
        Credentials credentials;
        try {
            settings = ServiceSettings.from(config);
            credentials = Credentials.from(settings.token(), settings.jwt(), settings.adminToken(), settings.line().secret(), clock);
        } catch (IllegalArgumentException e) {
            // Before any client or thread exists.
            refuse(e);
            return;
        }

        HikariDataSource db = Database.pool(settings.db());
        Database.migrate(db);
        RedissonClient redis = RedisClients.create(settings.redis());
        Admin kafkaAdmin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.kafka().bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000));
        // Observers first: metrics configures the global registry, and meters must be registered after that.
        List<Observer> observers = List.of(DependencyChecks.observer(redis, kafkaAdmin, db),
                MetricsObserver.builder().build());
        Wiring wiring;
        WebServerConfig.Builder builder;
        try {
            wiring = Wiring.create(settings, credentials, clock, redis, kafkaAdmin, db);
            builder = WebServer.builder().config(config.get("server"));
            Listeners.apply(builder, config.get("admin"), wiring.routes(), observers);
        } catch (IllegalArgumentException e) {
            refuse(e);
            return;
        }
        WebServer server = builder.build().start();
        if (!server.isRunning()) {
            // Helidon logs a failed bind and returns: a service nobody can reach must not linger.
            LOG.error("failed to start the HTTP server; exiting");
            System.exit(1);
        }

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            wiring.close();
            kafkaAdmin.close();
            redis.shutdown();
            db.close();
        }, "seckill-shutdown"));
        LOG.info("seckill service listening on http://127.0.0.1:" + server.port()
                + " (public /api), admin and observe on port " + server.port(Listeners.ADMIN));
    }

    /** A setting the service cannot run with: one line for the operator, exit code 2. */
    private static void refuse(IllegalArgumentException e) {
        System.err.println("seckill service refuses to start: " + e.getMessage());
        System.exit(2);
    }
}
