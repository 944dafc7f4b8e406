package dev.seckill.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

/**
 * Sales made through a topology's admin API ({@code POST /admin/sales}), as an operator makes them: the one place
 * tests and tools build a create-sale body. A {@link Sale} starts as an operator's usual sale (price 19.99, one unit,
 * started a second ago, lasting an hour) and each call changes one field; fields the builder does not name (a waiting
 * room, protection, a payment window) go in with {@link Sale#with}.
 */
public final class AdminSales {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Topology topology;
    private final HttpJson http;

    public AdminSales(Topology topology, HttpJson http) {
        this.topology = topology;
        this.http = http;
    }

    /** A sale named {@code prefix} plus a unique suffix, created on this topology by {@link Sale#create()}. */
    public Sale sale(String prefix) {
        return new Sale(this, prefix + System.nanoTime());
    }

    /** A sale named exactly {@code name} (a page test shows it), created on this topology by {@link Sale#create()}. */
    public Sale named(String name) {
        return new Sale(this, name);
    }

    /**
     * A sale named exactly {@code name} that is only a body ({@link Sale#body()}): for a tool that sends it over a
     * client of its own (chaos fails over between services and records each call).
     */
    public static Sale body(String name) {
        return new Sale(null, name);
    }

    /** Creates a sale named {@code prefix} plus a unique suffix and returns its id; anything but 201 fails the test. */
    public long create(String prefix, int stock, Instant startsAt, Instant endsAt) {
        return sale(prefix).stock(stock).startsAt(startsAt).endsAt(endsAt).create();
    }

    /** A sale that started a second ago and lasts an hour. */
    public long active(String prefix, int stock) {
        return sale(prefix).stock(stock).create();
    }

    /**
     * Creates {@code sale} on the admin listener at {@code adminUrl} (a topology may have several) without failing:
     * the answer whatever it is, status 0 when none came. For a tool that fails over between services and records
     * every call; {@code headers} are extra name/value pairs (an X-Request-Id).
     */
    public HttpJson.Answer attemptCreate(String adminUrl, Sale sale, String... headers) {
        return attempt("POST", adminUrl + "/admin/sales", sale.body.toString(), headers);
    }

    /** A sale's figures ({@code GET /admin/sales/{id}/stats}) at {@code adminUrl}, as {@link #attemptCreate}. */
    public HttpJson.Answer attemptStats(String adminUrl, long saleId, String... headers) {
        return attempt("GET", adminUrl + "/admin/sales/" + saleId + "/stats", null, headers);
    }

    /** Reconciles a sale ({@code POST /admin/sales/{id}/reconcile}) at {@code adminUrl}, as {@link #attemptCreate}. */
    public HttpJson.Answer attemptReconcile(String adminUrl, long saleId, String... headers) {
        return attempt("POST", adminUrl + "/admin/sales/" + saleId + "/reconcile", null, headers);
    }

    /**
     * As {@link #attemptReconcile(String, long, String...)}, judging only reservations older than {@code grace}
     * ({@code ?graceSeconds=}; the service refuses one shorter than its Kafka delivery timeout).
     */
    public HttpJson.Answer attemptReconcile(String adminUrl, long saleId, Duration grace, String... headers) {
        return attempt("POST", adminUrl + "/admin/sales/" + saleId + "/reconcile?graceSeconds=" + grace.toSeconds(),
                null, headers);
    }

    private HttpJson.Answer attempt(String method, String url, String body, String... headers) {
        String[] all = Arrays.copyOf(headers, headers.length + 2);
        all[headers.length] = "Authorization";
        all[headers.length + 1] = HttpJson.bearer(topology.adminToken());
        return http.attempt(method, url, body, all).join();
    }

    /** One create-sale body, built field by field; the last value given for a field wins. */
    public static final class Sale {

        private final AdminSales sales;
        private final ObjectNode body = JSON.createObjectNode();

        private Sale(AdminSales sales, String name) {
            this.sales = sales;
            Instant now = Instant.now();
            body.put("name", name);
            priceCents(1999).stock(1).startsAt(now.minusSeconds(1)).endsAt(now.plusSeconds(3600));
        }

        public Sale priceCents(long priceCents) {
            body.put("priceCents", priceCents);
            return this;
        }

        public Sale stock(long stock) {
            body.put("stock", stock);
            return this;
        }

        public Sale startsAt(Instant startsAt) {
            body.put("startsAt", startsAt.toString());
            return this;
        }

        public Sale endsAt(Instant endsAt) {
            body.put("endsAt", endsAt.toString());
            return this;
        }

        /** Any other field of the body ({@code payWindowSeconds}, {@code protection}, {@code challengeBits}...). */
        public Sale with(String field, Object value) {
            body.set(field, JSON.valueToTree(value));
            return this;
        }

        /** The waiting room of docs/waiting-room.md: its line opens {@code prequeueSeconds} before the start. */
        public Sale waitingRoom(int prequeueSeconds) {
            body.putObject("waitingRoom").put("prequeueSeconds", prequeueSeconds);
            return this;
        }

        /** As {@link #waitingRoom(int)}, admitting each buyer for {@code admitSeconds}. */
        public Sale waitingRoom(int prequeueSeconds, int admitSeconds) {
            body.putObject("waitingRoom").put("prequeueSeconds", prequeueSeconds).put("admitSeconds", admitSeconds);
            return this;
        }

        /** The body as it would be sent (a copy). */
        public ObjectNode body() {
            return body.deepCopy();
        }

        /** Sends the body and returns the answer whatever its status (for a test of a refused creation). */
        public HttpJson.Response post() {
            if (sales == null) {
                throw new IllegalStateException("this sale is only a body (AdminSales.body): send body() yourself");
            }
            return sales.http.post(sales.topology.adminUrl() + "/admin/sales", body.toString(),
                    "Authorization", HttpJson.bearer(sales.topology.adminToken()));
        }

        /** Creates the sale and returns its id; anything but 201 fails the test, naming the status and body. */
        public long create() {
            HttpJson.Response r = post();
            if (r.status() != 201) {
                throw new AssertionError("failed to create a sale: " + r.status() + " " + r.body());
            }
            return r.json().path("id").asLong();
        }
    }
}
