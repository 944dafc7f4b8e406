package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka or Redis failing under the purchase path: 503 UNAVAILABLE with Retry-After, a unit whose send failed is kept
 * for the buyer's retry (or released by reconcile), the service recovers by itself when the dependency returns, and
 * the invariants hold.
 */
class DependencyOutageIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    /** The shortest grace the service allows with the stack's delivery timeout (5 s + 1 s), so the test waits least. */
    private static final long GRACE_SECONDS = 6;
    private final ServiceClient svc = new ServiceClient();
    private static RedissonClient redis;

    @BeforeAll
    static void connect() {
        redis = StackRedis.connect(RedisClients::connect);
    }

    @AfterAll
    static void close() {
        redis.shutdown();
    }

    /**
     * Each test leaves the stack serving again before the next test (of this class or the next) runs: the public
     * health answer UP (no breaker open) and a run of 20 purchases in a row accepted, so a producer that still has to
     * find the restarted broker, or a breaker still open after the outage, is this test's wait, not the next test's
     * failure.
     */
    @AfterEach
    void stackServesAgain() {
        long sale = svc.activeSale(1_000);
        int[] inRow = {0};
        Await.until(Duration.ofSeconds(120), () -> {
            boolean ok = svc.http.get(svc.base + "/api/health").status() == 200
                    && svc.purchase(sale, ServiceClient.newUser()).status() == 202;
            inRow[0] = ok ? inRow[0] + 1 : 0;
            return inRow[0] >= 20;
        }, "20 purchases in a row accepted after the outage");
    }

    private long remaining(long sale) {
        Object v = redis.getBucket(Keys.stock(sale)).get();
        return Long.parseLong(v.toString());
    }

    /**
     * A send that failed may still have been written, so its unit is kept, never given back
     * at once, and the service sends that order again by itself once Kafka is back (the resender). The buyer who
     * retries hears the same order (202 if the retry is the resend, 409 ALREADY_PURCHASED naming it once the
     * resender sent it); the one who never retries gets the order too; one row each, and nothing for reconcile.
     */
    @Test
    void kafkaDownAnswers503AndKeepsTheUnitsWhoseOrdersAreResentOnceKafkaIsBack() throws Exception {
        long sale = svc.activeSale(10);
        assertEquals(202, svc.purchase(sale, ServiceClient.newUser()).status());
        long retrier = ServiceClient.newUser();
        long quitter = ServiceClient.newUser();
        Map<Long, String> named = new HashMap<>();
        svc.stack.seckill(STACK_OP, "down", "kafka");
        try {
            for (long user : List.of(retrier, quitter)) {
                HttpJson.Response r = svc.purchase(sale, user);
                assertEquals(503, r.status(), r.body());
                assertEquals("UNAVAILABLE", r.code());
                assertNotNull(r.header("Retry-After"));
                named.put(user, r.json().path("orderId").asText());
            }
            assertEquals(7, remaining(sale), "both units stay held: Kafka may have their orders");
            assertEquals(Set.of(Long.toString(retrier), Long.toString(quitter)), unsent(sale).keySet());
        } finally {
            svc.stack.seckill(STACK_OP, "up", "kafka");
        }
        String held = mark(sale, retrier);
        String quitterOrder = mark(sale, quitter);
        assertEquals(Map.of(retrier, held, quitter, quitterOrder), named, "each 503 named the order that holds the unit");
        HttpJson.Response answered = Await.value(Duration.ofSeconds(90), () -> {
            HttpJson.Response r = svc.purchase(sale, retrier);
            return r.status() == 202 || r.status() == 409 ? r : null;
        }, "the retry to be answered once Kafka is back");
        assertEquals(held, answered.json().path("orderId").asText(), "the retry names the same order: " + answered.body());
        Await.until(Duration.ofSeconds(60), () -> unsent(sale).isEmpty(), "the resender to send both held orders");
        Await.until(Duration.ofSeconds(60), () -> svc.stats(sale).path("consumerLag").asLong(-1) == 0
                && svc.stats(sale).path("dbOrders").asLong() == 3, "the accepted order and both held ones written");
        assertEquals(Long.valueOf(retrier), ownerOf(Long.parseLong(held)), "the row has the order id the answer named");
        assertEquals(Long.valueOf(quitter), ownerOf(Long.parseLong(quitterOrder)), "resent without a retry");
        assertEquals(7, remaining(sale), "10 - 3 written orders");
        assertEquals(3, redis.getMap(Keys.buyers(sale)).size(), "buyers = written orders");
        assertEquals(0, svc.reconcile(sale, GRACE_SECONDS).path("actions").size(), "nothing left for reconcile");
    }

    private String mark(long sale, long user) {
        return redis.<String, String>getMap(Keys.buyers(sale)).get(Long.toString(user));
    }

    private Map<String, String> unsent(long sale) {
        return redis.<String, String>getMap(Keys.unsent(sale)).readAllMap();
    }

    private Long ownerOf(long orderId) throws SQLException {
        try (Connection db = svc.stack.db();
             PreparedStatement ps = db.prepareStatement("SELECT user_id FROM seckill_order WHERE order_id = ?")) {
            ps.setLong(1, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    @Test
    void redisRestartAnswers503WhileDownAndRecoversWithoutRestartingTheService() {
        long sale = svc.activeSale(50);
        for (int i = 0; i < 5; i++) {
            assertEquals(202, svc.purchase(sale, ServiceClient.newUser()).status());
        }
        svc.stack.seckill(STACK_OP, "down", "redis");
        try {
            HttpJson.Response r = svc.purchase(sale, ServiceClient.newUser());
            assertEquals(503, r.status(), r.body());
            assertEquals("UNAVAILABLE", r.code());
            assertNotNull(r.header("Retry-After"));
        } finally {
            svc.stack.seckill(STACK_OP, "up", "redis");
        }
        Await.until(Duration.ofSeconds(60), () -> svc.purchase(sale, ServiceClient.newUser()).status() == 202,
                "purchases to be accepted again once Redis is back");
        // AOF kept the state: the buyers before the restart plus the one after, and stock conserved.
        long buyers = redis.getMap(Keys.buyers(sale)).size();
        assertEquals(6, buyers);
        assertEquals(50, remaining(sale) + buyers, "remaining + buyers = stock");
    }

    @Test
    void aSaleWhoseRedisKeysAreMissingAnswers503NeverSoldOutNorFreshStock() {
        long sale = svc.activeSale(5);
        redis.getKeys().delete(Keys.stock(sale), Keys.meta(sale), Keys.buyers(sale));
        HttpJson.Response r = svc.purchase(sale, ServiceClient.newUser());
        assertEquals(503, r.status(), r.body());
        assertEquals("UNAVAILABLE", r.code());
        assertFalse(redis.getBucket(Keys.stock(sale)).isExists(), "no stock was invented");
    }
}
