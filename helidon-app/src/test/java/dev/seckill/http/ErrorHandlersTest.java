package dev.seckill.http;

import dev.seckill.app.Reply;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.InvalidInput;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisTimeoutException;

import java.io.IOException;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Client-facing errors carry fixed messages and the request id, never driver, SQL or framework text. */
@RoutingTest
class ErrorHandlersTest {

    private static final String SECRET_DETAIL = "Access denied for user 'seckill'@'localhost' (using password: YES)";

    private final DirectClient client;

    ErrorHandlersTest(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        ErrorHandlers.register(routing);
        routing.get("/bug", (req, res) -> {
            throw new IllegalStateException(SECRET_DETAIL);
        });
        routing.get("/db", (req, res) -> {
            throw new DependencyUnavailable("failed to read sales", new SQLException(SECRET_DETAIL, "28000", 1045));
        });
        routing.get("/wrapped-db", (req, res) -> {
            throw new IllegalStateException("pool", new SQLException(SECRET_DETAIL));
        });
        routing.get("/redis", (req, res) -> {
            throw new RedisTimeoutException("Command execution timeout for 127.0.0.1/127.0.0.1:16379");
        });
        routing.get("/field", (req, res) -> {
            throw new InvalidInput("name", "name must be a string", new IOException(SECRET_DETAIL));
        });
        routing.post("/json", (req, res) -> Answers.json(res, io.helidon.http.Status.OK_200, JsonBody.read(req, 100)));
    }

    private static void assertFixed(Reply r) {
        assertTrue(r.isJson(), r.body());
        assertFalse(r.body().contains("seckill'") || r.body().contains("127.0.0.1") || r.body().contains("Exception")
                || r.body().contains("Unrecognized") || r.body().contains("line:"), r.body());
        assertTrue(r.json().path("requestId").asText().matches("[0-9a-f]{32}"), r.body());
    }

    @Test
    void aBugAnswers500WithAFixedMessage() {
        Reply r = Reply.of(client.get("/bug"));
        assertEquals(500, r.status());
        assertEquals("INTERNAL", r.code());
        assertEquals("unexpected error", r.json().path("message").asText());
        assertFixed(r);
    }

    @Test
    void aDatabaseOrRedisFailureAnswers503WithAFixedMessage() {
        for (String path : new String[]{"/db", "/wrapped-db", "/redis"}) {
            Reply r = Reply.of(client.get(path));
            assertEquals(503, r.status(), path);
            assertEquals("UNAVAILABLE", r.code(), path);
            assertEquals("1", r.header("Retry-After").orElseThrow(), path);
            assertFixed(r);
        }
    }

    @Test
    void badInputNamesTheFieldWithOurMessageOnly() {
        Reply r = Reply.of(client.get("/field"));
        assertEquals(400, r.status());
        assertEquals("name", r.json().path("field").asText());
        assertEquals("name must be a string", r.json().path("message").asText());
        assertFixed(r);
        Reply junk = Reply.of(client.post("/json"), "{\"a\": nope}");
        assertEquals(400, junk.status());
        assertEquals("body must be a JSON object", junk.json().path("message").asText());
        assertFixed(junk);
    }

    @Test
    void anUnknownRouteAnswers404WithoutEchoingThePath() {
        Reply r = Reply.of(client.get("/no/such/<b>route</b>"));
        assertEquals(404, r.status());
        assertEquals("NOT_FOUND", r.code());
        assertFalse(r.body().contains("route</b>"), r.body());
        assertFixed(r);
    }
}
