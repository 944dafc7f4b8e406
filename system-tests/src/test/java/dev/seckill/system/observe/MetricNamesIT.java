package dev.seckill.system.observe;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.seckill.system.edge.EdgeInstance.from;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Every metric the dashboard and the alert rules read exists in a running stack's output. After a few real
 * purchases through the edge (stored as rows by the writer), the three tiers' metrics are scraped the way
 * observability/prometheus.yml does, and each name in the pack's PromQL (parsed out of the files, not listed here)
 * must be among them, so renaming a meter breaks this test rather than a dashboard nobody looks at until a sale.
 */
class MetricNamesIT {

    private static final int PURCHASES = 3;
    /** Series Prometheus writes itself for each scrape, in no target's output. */
    private static final Set<String> PROMETHEUS_OWN = Set.of("up");

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final ObservabilityPack pack = new ObservabilityPack(stack.home());

    @Test
    void everyMetricTheDashboardAndTheAlertsReadIsInTheStacksOutput() {
        // The suite's fault tests run on the same stack: start once every dependency is ready and no breaker open.
        Await.until(Duration.ofSeconds(120), () -> http.get(stack.adminUrl() + "/observe/health").status() == 200
                && http.get(stack.serviceUrl() + "/api/health").status() == 200, "the service ready, no breaker open");
        long sale = createSale();
        TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
        long firstUser = 16_000_000_000L + System.nanoTime() % 1_000_000_000L;
        for (int i = 0; i < PURCHASES; i++) {
            // Each from an address of its own: the per-IP limit of loopback is shared with the rest of the suite.
            HttpJson.Response r = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                    from("10.16.0." + (i + 1), "Authorization", HttpJson.bearer(signer.mint(firstUser + i))));
            assertEquals(202, r.status(), r.body());
        }
        // Invariant: each accepted purchase becomes exactly one row (and the writer's meters have seen them).
        Await.until(Duration.ofSeconds(60), () -> rows(sale) == PURCHASES, PURCHASES + " rows of sale " + sale);

        Map<String, Set<String>> tiers = new LinkedHashMap<>();
        tiers.put("edge", names(http.get(stack.edgeUrl() + "/edge/metrics")));
        tiers.put("service", names(http.get(stack.adminUrl() + "/observe/metrics")));
        tiers.put("writer", names(http.get(stack.writerUrl() + "/observe/metrics")));
        Set<String> exposed = new TreeSet<>();
        tiers.values().forEach(exposed::addAll);

        Set<String> used = pack.metricNames();
        used.removeAll(PROMETHEUS_OWN);
        Set<String> missing = new TreeSet<>(used);
        missing.removeAll(exposed);
        assertEquals(Set.of(), missing, "metrics the dashboard or the alerts read that no tier exposes");

        // Each tier feeds the pack: a tier nobody reads would mean its scrape job serves no panel or alert.
        Map<String, Set<String>> unread = new TreeMap<>();
        tiers.forEach((tier, names) -> {
            Set<String> read = new TreeSet<>(names);
            read.retainAll(used);
            if (read.isEmpty()) {
                unread.put(tier, names);
            }
        });
        assertEquals(Map.of(), unread, "tiers whose metrics no panel or alert reads");
        assertFalse(pack.alertExpressions().isEmpty(), "the alert rules have expressions");
    }

    private long createSale() {
        return new AdminSales(stack, http).sale("observe-").priceCents(999).stock(PURCHASES).create();
    }

    private int rows(long sale) {
        try (Connection c = stack.db();
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM seckill_order WHERE sale_id = ?")) {
            s.setLong(1, sale);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("failed to count the rows of sale " + sale, e);
        }
    }

    private static Set<String> names(HttpJson.Response r) {
        assertEquals(200, r.status(), r.body());
        return PrometheusText.names(r.body());
    }
}
