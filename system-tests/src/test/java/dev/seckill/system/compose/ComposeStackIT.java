package dev.seckill.system.compose;

import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.check.SaleSummary;
import dev.seckill.redis.RedisClients;
import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ComposeStack;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.PrometheusText;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml's single stack under a real Docker engine, met as a Docker user meets it: {@code docker compose up -d
 * --build --wait} from nothing, the page and the API through the published edge on 127.0.0.1:8080, sales made on the
 * published admin listener, then a restart of the service and a {@code docker kill} of the writer during a sale,
 * {@code down} and {@code up} again, and {@code down -v}. Every sale ends with reconcile and the invariant check read
 * from MySQL and Redis directly (at their containers' addresses). The crowd acts as many clients behind a proxy the
 * edge believes (SECKILL_EDGE_TRUSTED_PROXIES: Docker's private ranges, where the published port's connections come
 * from), as a shop's CDN in front of it would.
 */
@Tag("compose")
// A whole stack built, started and broken inside the test: on a slow machine it may outlast the default timeout.
@Timeout(value = 25, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComposeStackIT {

    static final Map<String, String> BEHIND_A_PROXY = Map.of("SECKILL_EDGE_TRUSTED_PROXIES",
            "172.16.0.0/12,192.168.0.0/16", "SECKILL_LB_TRUSTED_PROXIES", "172.16.0.0/12,192.168.0.0/16");
    private static final ComposeStack STACK = new ComposeStack(false, BEHIND_A_PROXY);
    private static final HttpJson HTTP = new HttpJson();

    private static SaleRun crowd;

    @AfterAll
    static void removeEverything() {
        STACK.run("down", "-v", "--remove-orphans");
    }

    @Test
    @Order(1)
    void upFromNothingReachesHealthy() {
        STACK.compose("down", "-v", "--remove-orphans");
        long t0 = System.nanoTime();
        STACK.up();
        System.out.printf("compose: up -d --build --wait from nothing (images built) healthy in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
        Set<String> healthy = STACK.compose("ps", "--format", "{{.Service}} {{.Health}}").lines()
                .filter(l -> l.endsWith(" healthy")).map(l -> l.split(" ")[0]).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(List.of("redis", "db", "kafka", "service", "writer", "edge")), healthy);
    }

    @Test
    @Order(2)
    void theSalePageAndTheApiAnswerThroughTheEdge() {
        HttpJson.Response page = HTTP.get(STACK.publicUrl() + "/");
        assertEquals(200, page.status(), page.body());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        HttpJson.Response sales = HTTP.get(STACK.publicUrl() + "/api/sales");
        assertEquals(200, sales.status(), sales.body());
        assertTrue(sales.json().has("sales"), sales.body());
    }

    /** 100 units, 2,000 signed-in buyers clicking once each: exactly 100 sold, every other answer 410 or 429. */
    @Test
    @Order(3)
    void aCrowdBuysExactlyTheStockAndTheSoldOutCrowdHearsTheEdge() throws Exception {
        crowd = new SaleRun(STACK, 100, 2000, 1, Duration.ofSeconds(90)).start();
        crowd.finish();
        Map<Integer, Long> by = crowd.byStatus();
        assertEquals(100L, by.getOrDefault(202, 0L), "units sold: " + by);
        assertTrue(Set.of(202, 410, 429).containsAll(by.keySet()), "only 202, 410 and 429 are answered: " + by);
        assertEquals(List.of(), crowd.answers().stream().filter(a -> a.status() == 410
                && !"SOLD_OUT".equals(a.code())).toList(), "a 410 that is not SOLD_OUT");
        settleAndCheck(crowd, 100);
        // After the sell-out, the edge answers from its flag: each buyer hears the service's own SOLD_OUT, and the
        // service decides none of these clicks but the flag's re-checks (one purchase per edge worker once the flag
        // is SOLDOUT_TTL old: 2 workers, 5 s by default).
        double decided = soldOutDecisions();
        long t0 = System.nanoTime();
        List<AnsweredClick> late = IntStream.range(0, 50).mapToObj(i -> crowd.probe(STACK.publicUrl())).toList();
        long rechecks = 2 * ((System.nanoTime() - t0) / 5_000_000_000L + 1);
        assertEquals(List.of(), late.stream().filter(a -> a.status() != 410 || !"SOLD_OUT".equals(a.code())).toList(),
                "the sold-out crowd hears SOLD_OUT");
        double reached = soldOutDecisions() - decided;
        System.out.println("compose: 50 sold-out clicks, " + reached + " decided by the service (re-checks)");
        assertTrue(reached <= rechecks, reached + " of 50 sold-out clicks reached the service, more than the "
                + rechecks + " re-checks of the edge's flag");
    }

    /** The service's count of the SOLD_OUT answers it decided (its Prometheus metrics, admin listener). */
    private static double soldOutDecisions() {
        HttpJson.Response r = HTTP.get(STACK.adminUrl() + "/observe/metrics");
        assertEquals(200, r.status(), r.body());
        double sum = PrometheusText.samples(r.body()).entrySet().stream()
                .filter(e -> e.getKey().startsWith("seckill_purchases_total{") && e.getKey().contains("SOLD_OUT"))
                .mapToDouble(Map.Entry::getValue).sum();
        assertTrue(sum >= 1, "the service decided the first refusals itself: " + sum);
        return sum;
    }

    /**
     * A restart of the service and a SIGKILL of the writer while a crowd buys: every 202 becomes its row, and every
     * other invariant holds. While the service is away the edge answers 503 (the fault overlapped the crowd).
     */
    @Test
    @Order(4)
    void theServiceRestartedAndTheWriterKilledDuringASaleLoseNoOrder() throws Exception {
        SaleRun run = new SaleRun(STACK, 2000, 4000, 20, Duration.ofSeconds(150)).start();
        run.awaitAccepted(30, Duration.ofSeconds(60));
        assertTrue(run.count(202) < 2000, "the sale was still selling when the service restarted: " + run.counts());
        STACK.compose("restart", "service");
        STACK.kill("writer");
        // docker kill is a stop the restart policy honours: the operator brings the writer back.
        STACK.compose("up", "-d", "--wait", "service", "writer");
        run.finish();
        assertTrue(run.count(503) > 0, "no purchase met the restart: " + run.counts());
        settleAndCheck(run, -1);
    }

    /** down keeps the volumes: the orders are there after up. */
    @Test
    @Order(5)
    void downThenUpKeepsTheOrders() {
        long rows = rows(crowd.saleId);
        assertEquals(100, rows, "the first sale's rows before down");
        STACK.compose("down");
        STACK.up();
        assertEquals(rows, rows(crowd.saleId), "the first sale's rows after down and up");
        HttpJson.Response sale = HTTP.get(STACK.publicUrl() + "/api/sales/" + crowd.saleId);
        assertEquals(200, sale.status(), sale.body());
        assertEquals("SOLD_OUT", sale.json().path("state").asText(), sale.body());
    }

    @Test
    @Order(6)
    void downWithVolumesLeavesNothingBehind() {
        assertTrue(!STACK.leftovers().isEmpty(), "the stack is up before down -v");
        STACK.compose("down", "-v");
        assertEquals(List.of(), STACK.leftovers(), "containers, volumes or networks left after down -v");
    }

    static void settleAndCheck(SaleRun run, long expectedRows) throws Exception {
        List<String> actions = run.settle();
        SaleSummary report = run.check(RedisClients.connect(STACK.redisAddress(), null, STACK.redisPassword()));
        System.out.println("compose sale " + run.saleId + ": " + run.counts() + "; by status " + run.byStatus()
                + "; reconcile " + actions + "; " + report.summary());
        assertTrue(report.ok(), report.summary());
        assertEquals(0, run.count(500), "a 500 was answered");
        if (expectedRows >= 0) {
            assertEquals(expectedRows, report.dbOrders(), report.summary());
        }
    }

    /** The sale's rows in MySQL, read directly; polled until MySQL answers (it may be starting). */
    private static long rows(long saleId) {
        return Await.value(Duration.ofSeconds(60), () -> {
            try (Connection db = STACK.db();
                 PreparedStatement ps = db.prepareStatement("SELECT COUNT(*) FROM seckill_order WHERE sale_id = ?")) {
                ps.setLong(1, saleId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            } catch (SQLException e) {
                return null;
            }
        }, "MySQL to answer");
    }
}
