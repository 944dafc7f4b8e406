package dev.seckill.system.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import dev.seckill.testkit.Stack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static dev.seckill.system.edge.EdgeInstance.from;

/**
 * The running stack as the service-protection tests use it: sales created through the admin API, shoppers
 * that buy through the edge (each from its own forwarded address, so the per-IP limit sees distinct clients), the
 * service's meters and a sale's stats.
 */
final class ProtectionStack {

    private static final AtomicLong USERS = new AtomicLong(18_000_000_000L + System.nanoTime() % 1_000_000_000L);
    /** Each request its own client address: the edge's per-IP limits are not what these tests are about. */
    private static final AtomicLong ADDRESSES = new AtomicLong(18L << 16);

    final Stack stack = Stack.get();
    final HttpJson http = new HttpJson();
    private final AdminSales sales = new AdminSales(stack, http);
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    long newUser() {
        return USERS.incrementAndGet();
    }

    /** Creates a sale through the admin API and returns its id. */
    long createSale(int stock, Instant startsAt, Instant endsAt) {
        return sales.create("protect-", stock, startsAt, endsAt);
    }

    /** A sale that started a second ago and lasts an hour. */
    long activeSale(int stock) {
        return sales.active("protect-", stock);
    }

    private String[] as(long user, String... more) {
        String[] auth = {"Authorization", HttpJson.bearer(signer.mint(user))};
        String[] all = new String[auth.length + more.length];
        System.arraycopy(auth, 0, all, 0, auth.length);
        System.arraycopy(more, 0, all, auth.length, more.length);
        long a = ADDRESSES.incrementAndGet();
        return from("10." + (a >>> 16 & 0xff) + "." + (a >>> 8 & 0xff) + "." + (a & 0xff), all);
    }

    HttpJson.Response purchase(long sale, long user) {
        return http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null, as(user));
    }

    HttpJson.Response order(String orderId, long user) {
        return http.get(stack.edgeUrl() + "/api/orders/" + orderId, as(user));
    }

    HttpJson.Response myOrder(long sale, long user) {
        return http.get(stack.edgeUrl() + "/api/sales/" + sale + "/order", as(user));
    }

    HttpJson.Response pay(String orderId, long user) {
        return http.post(stack.edgeUrl() + "/api/orders/" + orderId + "/pay", null,
                as(user, "Idempotency-Key", "pay-" + orderId));
    }

    /** Polls until every dependency is ready again (the service's detailed health on the admin listener). */
    void awaitReady() {
        Await.until(Duration.ofSeconds(120), () -> http.get(stack.adminUrl() + "/observe/health").status() == 200
                && health().status() == 200, "every dependency to be ready and no breaker open");
    }

    HttpJson.Response health() {
        return http.get(stack.serviceUrl() + "/api/health");
    }

    JsonNode stats(long sale) {
        return admin("GET", "/admin/sales/" + sale + "/stats").json();
    }

    HttpJson.Response reconcile(long sale) {
        return admin("POST", "/admin/sales/" + sale + "/reconcile");
    }

    private HttpJson.Response admin(String method, String path) {
        return http.send(method, stack.adminUrl() + path, null, "Authorization", HttpJson.bearer(stack.adminToken()));
    }

    /** One sample of the service's Prometheus meters, by series ({@code name{labels}}). */
    Map<String, Double> metrics() {
        return PrometheusText.samples(http.get(stack.adminUrl() + "/observe/metrics").body());
    }

    /** The value of the series whose name and labels contain every given fragment (0 when absent). */
    static double series(Map<String, Double> sample, String name, String label) {
        return sample.entrySet().stream()
                .filter(e -> e.getKey().startsWith(name) && e.getKey().contains(label))
                .mapToDouble(Map.Entry::getValue).sum();
    }
}
