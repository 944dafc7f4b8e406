package dev.seckill.bench.measure;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.PrometheusText;
import dev.seckill.testkit.Stack;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** The operator side of a bench: sales and their stats, the service's and edges' meters, the sold-out flag. */
public record StackAdmin(Stack stack) {

    /** The consistency view of one sale ({@code GET /admin/sales/{id}/stats}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SaleStats(long stockTotal, long dbStock, Long redisRemaining, long redisBuyers, long dbOrders,
                     long consumerLag, long dbConfirmed, long dbPaid, long dbExpired, long unitsOwed) {

        /** The writer has caught up and has written at least {@code accepted} orders. */
        public boolean drained(long accepted) {
            return consumerLag == 0 && dbOrders >= accepted;
        }

        /**
         * Drained, and every order is PAID or EXPIRED with its unit back, in MySQL's stock and in Redis: the stats can
         * show an order EXPIRED a moment before its unit is counted back (a run read dbExpired 18, unitsOwed 0 and
         * both stocks 0, then 18), so the units are held against the live orders too.
         */
        public boolean settled(long accepted) {
            long back = stockTotal - (dbOrders - dbExpired);
            return drained(accepted) && dbConfirmed == 0 && unitsOwed == 0 && dbStock == back
                    && (redisRemaining == null || redisRemaining == back);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** kafka.delivery-timeout-ms (5 s) + 1 s: the shortest reconcile grace the service accepts. */
    private static final long RECONCILE_GRACE_SECONDS = 6;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * A sale of {@code stock} units open from {@code startsAt} for two hours, with {@code more} of its settings (its
     * payment window, its protection); returns its id.
     */
    public long createSale(String name, int stock, Instant startsAt, Map<String, Object> more)
            throws IOException, InterruptedException {
        AdminSales.Sale sale = AdminSales.body(name).priceCents(100).stock(stock).startsAt(startsAt)
                .endsAt(startsAt.plus(Duration.ofHours(2)));
        more.forEach(sale::with);
        return JSON.readTree(admin("POST", "/admin/sales", sale.body().toString())).path("id").asLong();
    }

    public SaleStats stats(long saleId) throws IOException, InterruptedException {
        return JSON.readValue(admin("GET", "/admin/sales/" + saleId + "/stats", null), SaleStats.class);
    }

    /** Polls the stats until they are {@code done} (drained, settled); null if they were not in time. */
    public SaleStats await(long saleId, Predicate<SaleStats> done, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            SaleStats s = stats(saleId);
            if (done.test(s)) {
                return s;
            }
            Thread.sleep(100);
        }
        return null;
    }

    /** The edges' counters by series ({@code name{labels}}), summed over SECKILL_BENCH_EDGES (the cluster's) if set. */
    public Map<String, Double> edgeMetrics() throws IOException, InterruptedException {
        String listed = System.getenv("SECKILL_BENCH_EDGES");
        List<String> edges = listed == null || listed.isBlank() ? List.of(stack.edgeUrl()) : List.of(listed.split(","));
        Map<String, Double> sum = new HashMap<>();
        for (String edge : edges) {
            PrometheusText.samples(send("GET", edge.strip() + "/edge/metrics", null)).forEach((k, v) -> sum.merge(k, v,
                    Double::sum));
        }
        return sum;
    }

    /** The service's meters ({@code /observe/metrics}), by series name. */
    public Map<String, Double> serviceMetrics() throws IOException, InterruptedException {
        return PrometheusText.samples(send("GET", stack.adminUrl() + "/observe/metrics", null, "Accept", "text/plain"));
    }

    /** The change of every series of a metric (all its labels together) between two scrapes. */
    public static long delta(Map<String, Double> before, Map<String, Double> after, String metric) {
        return Math.round(after.entrySet().stream().filter(e -> e.getKey().matches(metric + "(\\{.*)?"))
                .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum());
    }

    /**
     * After answers that decided nothing (503, none), which may leave a reservation without an order: waits out the
     * shortest reconcile grace and reconciles, as the periodic reconcile would (docs/failures.md); returns the actions.
     */
    public int reconcileAfterUndecided(long saleId, List<AnsweredClick> attempts) throws IOException, InterruptedException {
        if (attempts.stream().noneMatch(a -> a.status() == 503 || a.status() == 0)) {
            return 0;
        }
        Thread.sleep(Duration.ofSeconds(RECONCILE_GRACE_SECONDS + 1));
        JsonNode actions = JSON.readTree(admin("POST", "/admin/sales/" + saleId + "/reconcile?graceSeconds="
                + RECONCILE_GRACE_SECONDS, "")).path("actions");
        Progress.say("sale " + saleId + ": reconcile after the run's 503s: " + actions);
        return actions.size();
    }

    /** Sets (ttlSeconds > 0) or clears (0) the edge's sold-out flag of a sale. */
    public void soldOutFlag(long saleId, int ttlSeconds) throws IOException, InterruptedException {
        send(ttlSeconds > 0 ? "PUT" : "DELETE", stack.edgeUrl() + "/edge/flags/sold-out/" + saleId
                + (ttlSeconds > 0 ? "?ttl=" + ttlSeconds : ""), null);
    }

    /** An admin call, with its token. */
    private String admin(String method, String path, String body) throws IOException, InterruptedException {
        return send(method, stack.adminUrl() + path, body, "Authorization", "Bearer " + stack.adminToken(),
                "Content-Type", "application/json");
    }

    /** The answer's body; an answer other than a success (2xx) is an IOException naming it. */
    private static String send(String method, String url, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(headers.length == 0 ? b.build() : b.headers(headers).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IOException(method + " " + url + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }
}
