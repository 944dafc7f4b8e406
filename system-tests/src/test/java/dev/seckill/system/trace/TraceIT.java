package dev.seckill.system.trace;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One order followed end to end: a purchase through the edge with the client's own X-Request-Id, and
 * `bin/seckill trace` by that request id and by the order id prints every step, each with the ids that join it to
 * the next: the edge's purchase log, the service's line, Kafka's partition and offset, the writer's line, the row.
 */
class TraceIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration COMMAND = Duration.ofSeconds(60);

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    @Test
    void traceFollowsAPurchaseFromTheEdgeToItsRowByRequestIdAndByOrderId() {
        long sale = sale();
        String requestId = "trace-it-" + System.nanoTime();
        HttpJson.Response bought = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(System.nanoTime() % 1_000_000_000L + 3_000_000_000L)),
                "X-Request-Id", requestId);
        assertEquals(202, bought.status(), bought.body());
        String orderId = bought.json().path("orderId").asText();
        assertEquals(orderId, bought.header("X-Order-Id"), "the service names the order in a header for the edge's log");
        Await.until(WAIT, () -> rowExists(orderId), "the order's row");

        // The edge flushes its purchase log once a second: trace is asked again until every step is there.
        String byRequest = Await.value(WAIT, () -> complete(trace(requestId)), "a trace with every step, by request id");
        assertSteps(byRequest, requestId, orderId);
        String byOrder = Await.value(WAIT, () -> complete(trace(orderId)), "a trace with every step, by order id");
        assertSteps(byOrder, requestId, orderId);
    }

    private String trace(String id) {
        Stack.Outcome o = stack.run(Map.of(), COMMAND, "bin/seckill", "trace", id);
        assertEquals(0, o.exit(), o.output());
        return o.output();
    }

    /** The output if it has a line of every step, else null (asked again). */
    private static String complete(String out) {
        for (String step : List.of("edge", "service", "kafka", "writer", "row")) {
            if (line(out, step) == null) {
                return null;
            }
        }
        return out;
    }

    private static void assertSteps(String out, String requestId, String orderId) {
        assertTrue(out.contains("requestId " + requestId + ", orderId " + orderId), out);
        String edge = line(out, "edge");
        assertTrue(edge.contains(": 202 ") && edge.contains("requestId=" + requestId)
                && edge.contains("orderId=" + orderId), "edge: " + out);
        String service = line(out, "service");
        assertTrue(service.contains("purchase queued") && service.contains("requestId=" + requestId)
                && service.contains("orderId=" + orderId), "service: " + out);
        assertTrue(line(out, "kafka").contains("partition"), "kafka: " + out);
        String writer = line(out, "writer");
        assertTrue(writer.contains("order row written") && writer.contains("requestId=" + requestId)
                && writer.contains("orderId=" + orderId) && writer.contains("batch"), "writer: " + out);
        assertTrue(line(out, "row").contains("seckill_order " + orderId + ":") && line(out, "row").contains("CONFIRMED"),
                "row: " + out);
        // The path's order: the click first, the row last.
        assertTrue(out.indexOf(edge) < out.indexOf(service) && out.indexOf(service) < out.indexOf(writer)
                && out.indexOf(writer) < out.indexOf(line(out, "row")), "in the path's order: " + out);
    }

    /** The first line whose step column (the second) is {@code step}. */
    private static String line(String out, String step) {
        return out.lines().filter(l -> {
            String[] cols = l.trim().split("\\s+");
            return cols.length > 2 && cols[1].equals(step);
        }).findFirst().orElse(null);
    }

    private boolean rowExists(String orderId) {
        try (Connection c = stack.db();
             PreparedStatement s = c.prepareStatement("SELECT 1 FROM seckill_order WHERE order_id = ?")) {
            s.setLong(1, Long.parseLong(orderId));
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read the order's row: " + e.getMessage(), e);
        }
    }

    /** An open sale with stock to spare (admin API, the service's internal listener). */
    private long sale() {
        return new AdminSales(stack, http).sale("trace-").priceCents(100).stock(5).create();
    }
}
