package dev.seckill.purchase;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** Drives the running service over HTTP for integration tests: sales, tokens, purchases. */
final class ServiceClient {

    private static final AtomicLong NEXT_USER = new AtomicLong(System.nanoTime() % 1_000_000_000L * 1000);

    final Stack stack = Stack.get();
    final HttpJson http = new HttpJson();
    private final AdminSales sales = new AdminSales(stack, http);
    final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    final String base;

    ServiceClient() {
        this(Stack.get().serviceUrl());
    }

    ServiceClient(String base) {
        this.base = base;
    }

    /** A user id no other test uses. */
    static long newUser() {
        return NEXT_USER.incrementAndGet();
    }

    String token(long userId) {
        return signer.mint(userId);
    }

    /** Creates a sale through the admin API and returns its id. */
    long createSale(int stock, Instant startsAt, Instant endsAt) {
        return sales.create("it-", stock, startsAt, endsAt);
    }

    /** A sale that started a second ago and lasts an hour. */
    long activeSale(int stock) {
        return sales.active("it-", stock);
    }

    HttpJson.Response purchase(long saleId, long userId) {
        return http.post(base + "/api/sales/" + saleId + "/purchase", null, "Authorization", HttpJson.bearer(token(userId)));
    }

    HttpJson.Response order(String orderId, long userId) {
        return http.get(base + "/api/orders/" + orderId, "Authorization", HttpJson.bearer(token(userId)));
    }

    /** Runs reconcile of a sale with this grace: the report, or null when it did nothing (writer behind, 409). */
    JsonNode reconcile(long saleId, long graceSeconds) {
        HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales/" + saleId + "/reconcile?graceSeconds="
                + graceSeconds, null, "Authorization", HttpJson.bearer(stack.adminToken()));
        if (r.status() != 200 && r.status() != 409) {
            throw new AssertionError("failed to reconcile: " + r.status() + " " + r.body());
        }
        return r.status() == 200 ? r.json() : null;
    }

    JsonNode stats(long saleId) {
        HttpJson.Response r = http.get(stack.adminUrl() + "/admin/sales/" + saleId + "/stats",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        if (r.status() != 200) {
            throw new AssertionError("failed to read stats: " + r.status() + " " + r.body());
        }
        return r.json();
    }
}
