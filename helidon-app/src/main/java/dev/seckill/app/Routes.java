package dev.seckill.app;

import dev.seckill.http.Answers;
import dev.seckill.http.ErrorHandlers;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;

/**
 * The service's route table, in one place. It takes the HTTP services as they are, so unit tests mount the very
 * same table with services built on fakes (Helidon's routing tests, no stack).
 *
 * @param login the demo sign-in, or null when it is off
 */
record Routes(HttpService sales, HttpService purchases, HttpService orders, HttpService admin, HttpService login) {

    void routing(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        // A trivial route (no dependency touched): the benchmark's ceiling for "the edge proxying the service".
        routing.get("/api/ping", (req, res) -> Answers.json(res, Status.OK_200, Answers.body("code", "OK")));
        routing.register("/api/sales", sales, purchases)
                .register("/api/orders", orders)
                .register("/admin", admin);
        if (login != null) {
            routing.register("/api/login", login);
        }
    }
}
