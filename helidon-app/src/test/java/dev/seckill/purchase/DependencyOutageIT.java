package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import dev.seckill.redis.StackRedis;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Kafka or Redis failing under the purchase path: 503 UNAVAILABLE with Retry-After, any unit taken is given back,
 * the service recovers by itself when the dependency returns, and the invariants hold.
 */
class DependencyOutageIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private final ServiceClient svc = new ServiceClient();
    private static RedissonClient redis;

    @BeforeAll
    static void connect() {
        redis = StackRedis.connect();
    }

    @AfterAll
    static void close() {
        redis.shutdown();
    }

    private long remaining(long sale) {
        Object v = redis.getBucket(Keys.stock(sale)).get();
        return Long.parseLong(v.toString());
    }

    @Test
    void kafkaDownAnswers503AndGivesTheStockAndTheBuyerMarkBack() {
        long sale = svc.activeSale(10);
        assertEquals(202, svc.purchase(sale, ServiceClient.newUser()).status());
        svc.stack.seckill(STACK_OP, "down", "kafka");
        try {
            long user = ServiceClient.newUser();
            HttpJson.Response r = svc.purchase(sale, user);
            assertEquals(503, r.status(), r.body());
            assertEquals("UNAVAILABLE", r.code());
            assertNotNull(r.header("Retry-After"));
            assertEquals(9, remaining(sale), "the unit taken for the failed order is back");
            assertNull(redis.getMap(Keys.buyers(sale)).get(Long.toString(user)), "the buyer mark is gone");
        } finally {
            svc.stack.seckill(STACK_OP, "up", "kafka");
        }
        Await.until(Duration.ofSeconds(90), () -> svc.purchase(sale, ServiceClient.newUser()).status() == 202,
                "purchases to be accepted again once Kafka is back");
        assertEquals(10 - 2, remaining(sale));
        assertEquals(2, redis.getMap(Keys.buyers(sale)).size());
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
