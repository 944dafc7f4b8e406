package dev.seckill.app;

import dev.seckill.http.Answers;
import dev.seckill.http.ErrorHandlers;
import io.helidon.http.HeaderNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.util.List;
import java.util.function.Supplier;

/**
 * The service's route tables, in one place: the public listener serves {@code /api/**} only, the internal admin
 * listener {@code /admin/**} (and the observe feature, bound to that listener, {@code /observe/**}). Nothing
 * internal is routed on the public listener at all, so no spelling of a path (dot segments, {@code ;}, encoded
 * separators) can reach it there, even through a misconfigured edge. The tables take the HTTP services as they
 * are, so unit tests mount the very same tables on services built from fakes.
 *
 * @param protection   the challenge and path routes of protected sales
 * @param login        the demo sign-in, or null when it is off
 * @param openBreakers the dependencies whose circuit breaker is open now (dev.seckill.breaker.Breakers#open)
 * @param line         the waiting rooms' join, poll and progress routes; {@code lineAdmin} their operator view
 */
record Routes(HttpService sales, HttpService purchases, HttpService orders, HttpService admin,
              HttpService protection, HttpService login, Supplier<List<String>> openBreakers, HttpService line,
              HttpService lineAdmin) {

    /** Seconds a load balancer or client should wait before asking a DEGRADED instance again. */
    static final int DEGRADED_RETRY_AFTER = 1;
    static final String API_REQUESTS = "seckill.api.requests";

    /**
     * The public listener. Every request it answers is counted ({@value #API_REQUESTS}): what reached the service
     * past the edge, whatever its route (the observe feature's own counter sees the admin listener only).
     */
    void api(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        Counter requests = Counter.builder(API_REQUESTS).description("Requests the public listener answered")
                .register(Metrics.globalRegistry);
        routing.addFilter((chain, req, res) -> {
            requests.increment();
            chain.proceed();
        });
        routing.get("/api/health", this::health);
        // A trivial route (no dependency touched): the benchmark's ceiling for "the edge proxying the service".
        routing.get("/api/ping", (req, res) -> Answers.json(res, Status.OK_200, Answers.body("code", "OK")));
        // Orders are mounted at /api: besides /api/orders/** they answer a shopper's order in a sale,
        // /api/sales/{id}/order (one segment deeper than any sale route, so the two never overlap).
        routing.register("/api/sales", sales, purchases, protection, line)
                .register("/api", orders);
        if (login != null) {
            routing.register("/api/login", login);
        }
    }

    /**
     * The public health answer, touching no dependency (the detailed one is on the admin listener): 200 UP, or 503
     * DEGRADED naming the open breakers — purchases that need those dependencies are refused at once meanwhile.
     */
    private void health(ServerRequest req, ServerResponse res) {
        List<String> open = openBreakers.get();
        if (open.isEmpty()) {
            Answers.json(res, Status.OK_200, Answers.body("code", "UP"));
            return;
        }
        res.header(HeaderNames.RETRY_AFTER, Integer.toString(DEGRADED_RETRY_AFTER));
        Answers.json(res, Status.SERVICE_UNAVAILABLE_503, Answers.body("code", "DEGRADED", "open", open));
    }

    /** The admin listener (loopback by default): operators and monitoring. */
    void admin(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        routing.register("/admin", admin, lineAdmin);
    }
}
