package dev.seckill.app;

import dev.seckill.config.Setting;
import io.helidon.config.Config;
import io.helidon.openapi.OpenApiFeature;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.spi.Observer;

import java.util.List;
import java.util.Set;

/**
 * Lays the route tables onto the server's two listeners: the default (public) one from {@code server.*}, and the
 * named {@value #ADMIN} one from {@code admin.*}, which alone carries the admin routes and the observe endpoints
 * (health with details, metrics). Both serve the OpenAPI document at {@code /openapi}. Helidon reads both sections
 * itself; their defaults are application.yaml's (loopback for both).
 */
final class Listeners {

    static final String ADMIN = "admin";

    private Listeners() {
    }

    /**
     * @param admin the {@code admin} config section (host, port, and any other listener setting); without a host
     *              Helidon would listen on every interface, so a missing host or port stops the start instead
     */
    static void apply(WebServerConfig.BuilderBase<?, ?> server, Config admin, Routes routes, List<Observer> observers) {
        long maxPayload = server.maxPayloadSize();
        server.routing(routes::api)
                .putSocket(ADMIN, socket -> socket
                        .host(Setting.text(admin.get("host")))
                        .port(Setting.integer(admin.get("port")))
                        .maxPayloadSize(maxPayload)
                        .config(admin)
                        .routing(routes::admin))
                // Explicit, not discovered: a discovered observe feature would serve the public listener too.
                .featuresDiscoverServices(false)
                .addFeature(ObserveFeature.builder()
                        .sockets(List.of(ADMIN))
                        .observersDiscoverServices(false)
                        .observers(observers)
                        .build())
                // The API's contract (META-INF/openapi.yml, served as written) on both listeners: the public one
                // because clients and the edge read it there, the admin one because it describes the admin routes.
                .addFeature(OpenApiFeature.builder()
                        .sockets(Set.of(WebServer.DEFAULT_SOCKET_NAME, ADMIN))
                        .servicesDiscoverServices(false)
                        .build());
    }
}
