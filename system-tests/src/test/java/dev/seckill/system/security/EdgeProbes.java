package dev.seckill.system.security;

import dev.seckill.testkit.RawHttp;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probes: requests that tried to reach the admin API, the service's metrics and health details, or
 * a purchase past the edge's checks, through the public edge, and the refusal each must get. Every path is sent
 * byte for byte as written here (RawHttp), so the encoded, doubled, upper-case, backslash and non-ASCII forms reach
 * nginx as such. {@code {S}} in a path stands for a sale id.
 */
final class EdgeProbes {

    /** A request and the edge's answer to it: status and code. */
    record Probe(String method, String path, int status, String code) {

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** Strings that appear only in internal answers: admin stats, Prometheus text, health details. */
    static final List<String> INTERNAL = List.of("stockTotal", "redisRemaining", "consumerLag", "# HELP", "# TYPE",
            "\"checks\"");

    private static final int BAD = 400;
    private static final int NOT_FOUND = 404;

    private EdgeProbes() {
    }

    /** Every probe, for sale {@code sale}. */
    static List<Probe> all(long sale) {
        List<Probe> p = new ArrayList<>();
        // ';': nginx keeps it as path text, the service drops what follows it and then resolves '..'.
        bad(p, "GET", "/api/x/..;/..;/admin/sales/{S}/stats");
        bad(p, "GET", "/api/x/..;/..;/observe/metrics");
        bad(p, "GET", "/api/x/..;/..;/observe/health");
        bad(p, "POST", "/api/sales/{S}/purchase;x");
        bad(p, "POST", "/api/sales/{S};x/purchase");
        bad(p, "GET", "/api/sales/{S};jsessionid=1");
        // The same, encoded ('.' %2e, '/' %2f, ';' %3b, '\' %5c) in both cases, and doubled (%25 = '%').
        bad(p, "GET", "/api/x/%2e%2e/%2e%2e/admin/sales/{S}/stats");
        bad(p, "GET", "/api/x/%2E%2E/%2E%2E/observe/metrics");
        bad(p, "GET", "/api/x/..%2f..%2fadmin/sales/{S}/stats");
        bad(p, "GET", "/api/x/..%2F..%2Fobserve/metrics");
        bad(p, "GET", "/api/x/..%3b/..%3b/admin/sales/{S}/stats");
        bad(p, "GET", "/api/x/..%3B/..%3B/observe/metrics");
        bad(p, "POST", "/api/sales/{S}/purchase%3bx");
        bad(p, "GET", "/api%2fsales/{S}");
        bad(p, "GET", "/api/x/%5c..%5cadmin/sales/{S}/stats");
        bad(p, "GET", "/api/x/%5C..%5Cobserve/metrics");
        bad(p, "GET", "/api/x/%252e%252e/%252e%252e/admin/sales/{S}/stats");
        bad(p, "GET", "/api/x/%252E%252E%252Fobserve/metrics");
        bad(p, "GET", "/api/x/..%253b/..%253b/admin/sales/{S}/stats");
        bad(p, "GET", "/api/x/%2E%2E/%2E%2E/ADMIN/sales/{S}/stats");
        String id = Long.toString(sale);
        bad(p, "POST", "/api/sales/%3" + id.charAt(0) + id.substring(1) + "/purchase");
        // Backslashes, dot and empty segments.
        bad(p, "GET", "/api/x/..\\..\\admin/sales/{S}/stats");
        bad(p, "GET", "/api\\..\\observe\\metrics");
        bad(p, "GET", "/api/x/../../admin/sales/{S}/stats");
        bad(p, "GET", "/api/./../observe/metrics");
        bad(p, "POST", "/api/sales/{S}/./purchase");
        bad(p, "GET", "/api/sales/{S}/..");
        bad(p, "GET", "//admin/sales/{S}/stats");
        bad(p, "GET", "//observe/metrics");
        bad(p, "GET", "/api//..//admin/sales/{S}/stats");
        // Digits that are not ASCII (full-width, Arabic-Indic) parse as numbers in Java: refused as bytes.
        bad(p, "GET", "/api/sales/\uFF11");
        bad(p, "POST", "/api/sales/\uFF11/purchase");
        bad(p, "GET", "/api/sales/\u0661");
        bad(p, "GET", "/api/orders/\u0661");
        // The internal routes themselves, in any case, and in absolute form.
        for (String path : new String[] {"/admin/sales/{S}/stats", "/admin/sales", "/admin", "/observe/health",
            "/observe/metrics", "/observe", "/API/sales/{S}", "/ADMIN/sales/{S}/stats", "/Observe/metrics",
            "http://127.0.0.1/admin/sales/{S}/stats", "http://127.0.0.1/observe/metrics", "/api/admin/sales/{S}/stats",
            "/api/observe/metrics"}) {
            p.add(new Probe("GET", path, NOT_FOUND, "NOT_FOUND"));
        }
        p.add(new Probe("POST", "/admin/sales", NOT_FOUND, "NOT_FOUND"));
        p.add(new Probe("POST", "/admin/sales/{S}/reconcile", NOT_FOUND, "NOT_FOUND"));
        // Other spellings of an id: no such sale or order, answered by the edge.
        String[] spellings = {"+{S}", "0{S}", "-{S}", "1e3", "0", "12345678901234567890", "{S}.0", "0x1"};
        for (String spelling : spellings) {
            p.add(new Probe("GET", "/api/sales/" + spelling, NOT_FOUND, "SALE_NOT_FOUND"));
            p.add(new Probe("POST", "/api/sales/" + spelling + "/purchase", NOT_FOUND, "SALE_NOT_FOUND"));
            p.add(new Probe("GET", "/api/orders/" + spelling, NOT_FOUND, "ORDER_NOT_FOUND"));
        }
        return p.stream().map(x -> new Probe(x.method(), x.path().replace("{S}", id), x.status(),
                x.code())).toList();
    }

    private static void bad(List<Probe> p, String method, String path) {
        p.add(new Probe(method, path, BAD, "BAD_REQUEST"));
    }

    /** Sends the probe with an admin-looking token and checks the refusal; returns the answer. */
    static RawHttp.Answer send(int edgePort, Probe probe, String adminToken) {
        RawHttp.Answer a = RawHttp.exchange(edgePort,
                RawHttp.request(probe.method(), probe.path(), "Authorization", "Bearer " + adminToken), false);
        String what = probe + " -> " + a.raw();
        assertEquals(probe.status(), a.status(), what);
        assertTrue(a.header("Content-Type") != null && a.header("Content-Type").startsWith("application/json"), what);
        assertTrue(a.body().startsWith("{\"code\":\"" + probe.code() + "\""), what);
        for (String internal : INTERNAL) {
            assertFalse(a.raw().contains(internal), "an internal answer came back: " + what);
        }
        return a;
    }
}
