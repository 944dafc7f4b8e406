package dev.seckill.order;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.SaleRows;
import dev.seckill.testkit.Stack;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shoppers and an operator of the running stack, for the order ITs: sales with a payment window,
 * purchases, orders, payments, a sale's stats, and an order's row read straight from MySQL.
 */
final class Shoppers {

    /** The writer confirms an order within moments; allow for a slow, shared machine. */
    static final Duration CONFIRMATION = Duration.ofSeconds(60);
    private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000_000L * 1000 + 700_000_000_000L);

    final Stack stack = Stack.get();
    final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    /** The public listener the shoppers call (the stack's service, or a second instance). */
    final String base;

    Shoppers() {
        this(Stack.get().serviceUrl());
    }

    Shoppers(String base) {
        this.base = base;
    }

    static long newUser() {
        return USERS.incrementAndGet();
    }

    private String[] auth(long userId, String... more) {
        String[] h = new String[2 + more.length];
        h[0] = "Authorization";
        h[1] = HttpJson.bearer(signer.mint(userId));
        System.arraycopy(more, 0, h, 2, more.length);
        return h;
    }

    /** A running sale (started a second ago, lasting an hour) with this stock and payment window. */
    long sale(int stock, int payWindowSeconds) {
        return new AdminSales(stack, http).sale("pay-").priceCents(2500).stock(stock)
                .with("payWindowSeconds", payWindowSeconds).create();
    }

    HttpJson.Response buy(long saleId, long userId) {
        return http.post(base + "/api/sales/" + saleId + "/purchase", null, auth(userId));
    }

    /** A purchase sent with its own X-Request-Id (the service keeps a safe one as the request's id). */
    HttpJson.Response buy(long saleId, long userId, String requestId) {
        return http.post(base + "/api/sales/" + saleId + "/purchase", null, auth(userId, "X-Request-Id", requestId));
    }

    /** A pay sent with its own X-Request-Id. */
    HttpJson.Response pay(String orderId, long userId, String key, String requestId) {
        return http.post(base + "/api/orders/" + orderId + "/pay", null,
                auth(userId, "Idempotency-Key", key, "X-Request-Id", requestId));
    }

    /** Buys and returns the order id, failing unless the answer is 202. */
    String bought(long saleId, long userId) {
        HttpJson.Response r = buy(saleId, userId);
        if (r.status() != 202) {
            throw new AssertionError("expected 202 for user " + userId + ": " + r.status() + " " + r.body());
        }
        return r.json().path("orderId").asText();
    }

    HttpJson.Response order(String orderId, long userId) {
        return http.get(base + "/api/orders/" + orderId, auth(userId));
    }

    HttpJson.Response pay(String orderId, long userId, String key) {
        return key == null ? http.post(base + "/api/orders/" + orderId + "/pay", null, auth(userId))
                : http.post(base + "/api/orders/" + orderId + "/pay", null, auth(userId, "Idempotency-Key", key));
    }

    HttpJson.Response mine(long saleId, long userId) {
        return http.get(base + "/api/sales/" + saleId + "/order", auth(userId));
    }

    /**
     * Waits until the writer has written the order (any state but QUEUED: payBy is known) and returns the answer. A
     * short window may have lapsed already by then on a busy machine, so the order can be EXPIRED here.
     */
    JsonNode awaitWritten(String orderId, long userId, Duration timeout) {
        return Await.value(timeout, () -> {
            HttpJson.Response r = order(orderId, userId);
            return r.status() == 200 && !r.json().path("payBy").isMissingNode() && !r.json().path("payBy").isNull()
                    ? r.json() : null;
        }, "order " + orderId + " to be written");
    }

    /** Waits until the order's status is {@code state} and returns the answer. */
    JsonNode await(String orderId, long userId, String state, Duration timeout) {
        return Await.value(timeout, () -> {
            HttpJson.Response r = order(orderId, userId);
            return state.equals(r.code()) ? r.json() : null;
        }, "order " + orderId + " to be " + state);
    }

    JsonNode stats(long saleId) {
        HttpJson.Response r = http.get(stack.adminUrl() + "/admin/sales/" + saleId + "/stats",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        if (r.status() != 200) {
            throw new AssertionError("failed to read stats: " + r.status() + " " + r.body());
        }
        return r.json();
    }

    /** Waits until the sale's stats say consistent, and returns them. */
    JsonNode consistent(long saleId) {
        return Await.value(CONFIRMATION, () -> {
            JsonNode s = stats(saleId);
            return s.path("consistent").asBoolean() ? s : null;
        }, "sale " + saleId + " to be consistent (writer caught up, no unit owed to Redis)");
    }

    /** Fails unless the sale's rows are exactly the orders the 202s named (orderId to userId). */
    void assertRowsAreTheNamedOrders(long saleId, Map<String, Long> named) {
        SaleRows.assertAreTheNamedOrders(stack, saleId, named);
    }

    /** One number from MySQL, straight (never through the service). */
    long sql(String query, long arg) {
        try (Connection c = stack.db(); PreparedStatement ps = c.prepareStatement(query)) {
            ps.setLong(1, arg);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to query MySQL: " + e.getMessage(), e);
        }
    }
}
