package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator side of a bench: sales, their stats and the service's meters on the service's internal (admin)
 * listener, the edge's counters and sold-out flags on its loopback-only locations. Low volume, so the JDK client.
 */
final class Admin {

    /** The consistency view of one sale ({@code GET /admin/sales/{id}/stats}). */
    record SaleStats(long stockTotal, long dbStock, Long redisRemaining, long redisBuyers, long dbOrders,
                     long consumerLag, long dbConfirmed, long dbPaid, long dbExpired, long unitsOwed) {

        /** The writer has caught up and has written at least {@code accepted} orders. */
        boolean drained(long accepted) {
            return consumerLag == 0 && dbOrders >= accepted;
        }

        /** Drained, and no order waits for its payment or owes Redis its unit: every order is PAID or EXPIRED. */
        boolean settled(long accepted) {
            return drained(accepted) && dbConfirmed == 0 && unitsOwed == 0;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** kafka.delivery-timeout-ms (5 s) + 1 s: the shortest reconcile grace the service accepts. */
    private static final long RECONCILE_GRACE_SECONDS = 6;

    private final Stack stack;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Admin(Stack stack) {
        this.stack = stack;
    }

    /** Creates a sale that is open from a second ago for two hours; returns its id. */
    long createSale(String name, int stock) throws IOException, InterruptedException {
        return createSale(name, stock, Duration.ofSeconds(900));
    }

    /** The same, with this payment window for its winners. */
    long createSale(String name, int stock, Duration payWindow) throws IOException, InterruptedException {
        Instant now = Instant.now();
        String body = JSON.writeValueAsString(Map.of("name", name, "priceCents", 100, "stock", stock,
                "startsAt", now.minusSeconds(1).toString(), "endsAt", now.plus(Duration.ofHours(2)).toString(),
                "payWindowSeconds", payWindow.toSeconds()));
        return create(body);
    }

    /**
     * A protected sale (issue 15) of {@code protection} ({@code none}, {@code path} or {@code challenge}, with
     * {@code bits} of difficulty) opening at {@code startsAt} for two hours; returns its id.
     */
    long createSale(String name, int stock, Instant startsAt, String protection, int bits)
            throws IOException, InterruptedException {
        Map<String, Object> sale = new HashMap<>(Map.of("name", name, "priceCents", 100, "stock", stock,
                "startsAt", startsAt.toString(), "endsAt", startsAt.plus(Duration.ofHours(2)).toString(),
                "protection", protection));
        if (protection.equals("challenge")) {
            sale.put("challengeBits", bits);
        }
        return create(JSON.writeValueAsString(sale));
    }

    private long create(String body) throws IOException, InterruptedException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(stack.adminUrl() + "/admin/sales"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)), true);
        if (r.statusCode() != 201) {
            throw new IOException("failed to create a sale: " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body()).path("id").asLong();
    }

    SaleStats stats(long saleId) throws IOException, InterruptedException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(
                URI.create(stack.adminUrl() + "/admin/sales/" + saleId + "/stats")).GET(), true);
        if (r.statusCode() != 200) {
            throw new IOException("failed to read the stats of sale " + saleId + ": " + r.statusCode() + " " + r.body());
        }
        JsonNode s = JSON.readTree(r.body());
        return new SaleStats(s.path("stockTotal").asLong(), s.path("dbStock").asLong(),
                s.path("redisRemaining").isNumber() ? s.path("redisRemaining").asLong() : null,
                s.path("redisBuyers").asLong(), s.path("dbOrders").asLong(), s.path("consumerLag").asLong(-1),
                s.path("dbConfirmed").asLong(), s.path("dbPaid").asLong(), s.path("dbExpired").asLong(),
                s.path("unitsOwed").asLong());
    }

    /** Polls the stats until the writer has caught up with {@code accepted} orders; null if it did not in time. */
    SaleStats awaitDrained(long saleId, long accepted, Duration timeout) throws IOException, InterruptedException {
        return await(saleId, s -> s.drained(accepted), timeout);
    }

    /** Polls the stats until every order of the sale is PAID or EXPIRED and Redis got every unit back. */
    SaleStats awaitSettled(long saleId, long accepted, Duration timeout) throws IOException, InterruptedException {
        return await(saleId, s -> s.settled(accepted), timeout);
    }

    private SaleStats await(long saleId, java.util.function.Predicate<SaleStats> done, Duration timeout)
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

    /**
     * The edges' counters, by full series name ({@code name{labels}}): the stack's edge, or the sum over every edge
     * SECKILL_BENCH_EDGES lists (base URLs, comma-separated: the cluster's edges, whose /edge/* the load balancer in
     * front of them does not pass).
     */
    Map<String, Double> edgeMetrics() throws IOException, InterruptedException {
        String listed = System.getenv("SECKILL_BENCH_EDGES");
        List<String> edges = listed == null || listed.isBlank() ? List.of(stack.edgeUrl()) : List.of(listed.split(","));
        Map<String, Double> sum = new HashMap<>();
        for (String edge : edges) {
            prometheus(send(HttpRequest.newBuilder(URI.create(edge.strip() + "/edge/metrics")).GET(), false))
                    .forEach((k, v) -> sum.merge(k, v, Double::sum));
        }
        return sum;
    }

    /** The service's meters ({@code /observe/metrics}), by full series name. */
    Map<String, Double> serviceMetrics() throws IOException, InterruptedException {
        return prometheus(send(HttpRequest.newBuilder(URI.create(stack.adminUrl() + "/observe/metrics"))
                .header("Accept", "text/plain").GET(), false));
    }

    private static Map<String, Double> prometheus(HttpResponse<String> r) {
        Map<String, Double> out = new HashMap<>();
        for (String line : r.body().split("\n")) {
            int space = line.lastIndexOf(' ');
            if (line.startsWith("#") || space < 0) {
                continue;
            }
            try {
                out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return out;
    }

    /**
     * Reconciles a sale ({@code POST /admin/sales/{id}/reconcile}) with this grace; returns the report's JSON.
     *
     * @throws IOException when the service does not answer 200 (e.g. WRITER_BEHIND)
     */
    String reconcile(long saleId, long graceSeconds) throws IOException, InterruptedException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(stack.adminUrl() + "/admin/sales/" + saleId
                + "/reconcile?graceSeconds=" + graceSeconds)).POST(HttpRequest.BodyPublishers.noBody()), true);
        if (r.statusCode() != 200) {
            throw new IOException("failed to reconcile sale " + saleId + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /**
     * After a run with answers that decided nothing (503, none): a 503 whose script had run (a Redis answer that timed
     * out on a starved machine) leaves a reservation with no order until reconcile releases it once older than the
     * grace (docs/failures.md). Releases them as the periodic reconcile would, after the shortest grace the service
     * accepts (kafka.delivery-timeout-ms 5 s + 1 s), so that the invariants can be read; returns the actions taken.
     */
    int reconcileAfterUndecided(long saleId, List<Attempt> attempts) throws IOException, InterruptedException {
        if (attempts.stream().noneMatch(a -> a.status() == 503 || a.status() == 0)) {
            return 0;
        }
        Thread.sleep(Duration.ofSeconds(RECONCILE_GRACE_SECONDS + 1));
        JsonNode report = JSON.readTree(reconcile(saleId, RECONCILE_GRACE_SECONDS));
        Bench.say("sale " + saleId + ": reconcile after the run's 503s: " + report.path("actions"));
        return report.path("actions").size();
    }

    /** The status the edge answers a GET of {@code path} with. */
    int edgeAnswers(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(stack.edgeUrl() + path)).GET(), false).statusCode();
    }

    /** Sets (ttlSeconds > 0) or clears (0) the edge's sold-out flag of a sale. */
    void soldOutFlag(long saleId, int ttlSeconds) throws IOException, InterruptedException {
        URI uri = URI.create(stack.edgeUrl() + "/edge/flags/sold-out/" + saleId + (ttlSeconds > 0 ? "?ttl=" + ttlSeconds : ""));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri);
        HttpResponse<String> r = send(ttlSeconds > 0 ? b.PUT(HttpRequest.BodyPublishers.noBody()) : b.DELETE(), false);
        if (r.statusCode() != 200) {
            throw new IOException("failed to set the edge's sold-out flag: " + r.statusCode() + " " + r.body());
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder b, boolean admin) throws IOException, InterruptedException {
        if (admin) {
            b.header("Authorization", "Bearer " + stack.adminToken());
        }
        return http.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
