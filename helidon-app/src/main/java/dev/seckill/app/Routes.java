package dev.seckill.app;

import dev.seckill.http.Answers;
import dev.seckill.http.ErrorHandlers;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;

/**
 * The service's route tables, in one place: the public listener serves {@code /api/**} only, the internal admin
 * listener {@code /admin/**} (and the observe feature, bound to that listener, {@code /observe/**}). Nothing
 * internal is routed on the public listener at all, so no spelling of a path (dot segments, {@code ;}, encoded
 * separators) can reach it there, even through a misconfigured edge. The tables take the HTTP services as they
 * are, so unit tests mount the very same tables on services built from fakes.
 *
 * @param protection the challenge and path routes of protected sales (issue 15)
 * @param login the demo sign-in, or null when it is off
 */
record Routes(HttpService sales, HttpService purchases, HttpService orders, HttpService admin,
              HttpService protection, HttpService login) {

    /** The public listener. */
    void api(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        // The public health answer: no details and no dependency touched (the detailed one is on the admin listener).
        routing.get("/api/health", (req, res) -> Answers.json(res, Status.OK_200, Answers.body("code", "UP")));
        // A trivial route (no dependency touched): the benchmark's ceiling for "the edge proxying the service".
        routing.get("/api/ping", (req, res) -> Answers.json(res, Status.OK_200, Answers.body("code", "OK")));
        // Orders are mounted at /api: besides /api/orders/** they answer a shopper's order in a sale,
        // /api/sales/{id}/order (one segment deeper than any sale route, so the two never overlap).
        routing.register("/api/sales", sales, purchases, protection)
                .register("/api", orders);
        if (login != null) {
            routing.register("/api/login", login);
        }
    }

    /** The admin listener (loopback by default): operators and monitoring. */
    void admin(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        routing.register("/admin", admin);
    }
}
