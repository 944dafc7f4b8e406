package dev.seckill.system.protection;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sales leave Redis once settled: the service restarted with a short archiving pass, grace, linger and
 * retention. A sale whose orders are final is archived after its end and grace, its stock, buyers and returned keys
 * expire, and its orders stay readable (order status, "my order") from MySQL, while reconcile and the stats call it
 * archived, not lost. A sale that ended at the same time but still has an order the writer has not written keeps its
 * keys until the order is written. A sale with an unpaid order is archived once its retention has passed.
 */
class ArchiveStackIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    /** Short settings; the grace is the least the service accepts (the producer's delivery timeout, 5 s, + 1 s). */
    private static final Map<String, String> SHORT = Map.of(
            "SECKILL_ARCHIVE_INTERVAL_MS", "500",
            "SECKILL_ARCHIVE_LINGER_SECONDS", "2",
            "SECKILL_ARCHIVE_RETENTION_SECONDS", "12",
            "SECKILL_RECONCILE_GRACE_SECONDS", "6");

    private static final ProtectionStack svc = new ProtectionStack();
    private static RedissonClient redis;

    @BeforeAll
    static void shortSettings() {
        svc.stack.seckill(SHORT, STACK_OP, "restart", "service");
        redis = StackRedis.connect(svc.stack, RedisClients::connect);
    }

    @AfterAll
    static void defaults() {
        redis.shutdown();
        svc.stack.seckill(STACK_OP, "restart", "service");
    }

    private record Bought(long user, String orderId) {
    }

    private static Bought buy(long sale) {
        long user = svc.newUser();
        HttpJson.Response r = svc.purchase(sale, user);
        assertEquals(202, r.status(), r.body());
        return new Bought(user, r.json().path("orderId").asText());
    }

    private static boolean archived(long sale) {
        return redis.<String, String>getMap(Keys.meta(sale)).get("archived") != null;
    }

    private static boolean keysGone(long sale) {
        return redis.getKeys().countExists(Keys.stock(sale), Keys.buyers(sale), Keys.returned(sale)) == 0;
    }

    private static void awaitState(Bought b, String state) {
        Await.until(Duration.ofSeconds(60), () -> state.equals(svc.order(b.orderId(), b.user()).code()),
                "order " + b.orderId() + " to be " + state);
    }

    @Test
    void aSettledSaleLeavesRedisWhileOneWithAQueuedOrderKeepsItsKeysUntilItIsWritten() {
        // Long enough to buy in both before the end, with the writer stopped for the second.
        Instant end = Instant.now().plusSeconds(20);
        long settled = svc.createSale(5, Instant.now().minusSeconds(1), end);
        long queued = svc.createSale(5, Instant.now().minusSeconds(1), end);
        Bought paid = buy(settled);
        awaitState(paid, "CONFIRMED");
        assertEquals(200, svc.pay(paid.orderId(), paid.user()).status());

        svc.stack.seckill(STACK_OP, "down", "writer");
        Bought waiting;
        try {
            waiting = buy(queued);
            Await.until(Duration.ofSeconds(60), () -> archived(settled) && keysGone(settled),
                    "the settled sale to be archived and its keys to expire");
            // Ended together, but its order is still QUEUED (the writer is down): nothing of it may leave Redis.
            assertFalse(archived(queued), "a sale with a QUEUED order is not archived");
            assertEquals(waiting.orderId(), redis.<String, String>getMap(Keys.buyers(queued))
                    .get(Long.toString(waiting.user())), "its buyer mark is still there");
            assertNotNull(redis.getBucket(Keys.stock(queued)).get());
        } finally {
            svc.stack.seckill(STACK_OP, "up", "writer");
        }

        // The archived sale answers from MySQL.
        assertEquals("PAID", svc.order(paid.orderId(), paid.user()).code());
        HttpJson.Response mine = svc.myOrder(settled, paid.user());
        assertEquals(200, mine.status(), mine.body());
        assertEquals(paid.orderId(), mine.json().path("orderId").asText());
        assertEquals("NO_ORDER", svc.myOrder(settled, svc.newUser()).code());
        HttpJson.Response late = svc.purchase(settled, svc.newUser());
        assertEquals(410, late.status(), late.body());
        assertEquals("SALE_ENDED", late.code());
        JsonNode stats = svc.stats(settled);
        assertTrue(stats.path("archived").asBoolean(), stats.toString());
        assertTrue(stats.path("redisRemaining").isNull(), "its stock left Redis: " + stats);
        // Judged once the writer has caught up with the other sale's order (consumerLag is the writer's total).
        Await.until(Duration.ofSeconds(60), () -> svc.stats(settled).path("consistent").asBoolean(),
                "the archived sale to be consistent (archived, not lost)");
        HttpJson.Response reconciled = svc.reconcile(settled);
        assertEquals("ARCHIVED", reconciled.code(), reconciled.body());
        assertEquals(0, reconciled.json().path("actions").size(), reconciled.body());
        assertFalse(redis.getBucket(Keys.stock(settled)).isExists(), "reconcile rebuilt nothing");

        // Once written, the other one settles too (its order is unpaid: after the retention).
        awaitState(waiting, "CONFIRMED");
        Await.until(Duration.ofSeconds(60), () -> archived(queued) && keysGone(queued),
                "the sale to be archived once its order is written and its retention has passed");
        assertEquals("CONFIRMED", svc.order(waiting.orderId(), waiting.user()).code());
        assertEquals(waiting.orderId(), svc.myOrder(queued, waiting.user()).json().path("orderId").asText());
        assertTrue(svc.stats(queued).path("consistent").asBoolean());
    }

    @Test
    void aSaleThatCanStillSellIsNeverArchived() {
        long live = svc.activeSale(5);
        Bought b = buy(live);
        awaitState(b, "CONFIRMED");
        assertEquals(200, svc.pay(b.orderId(), b.user()).status());
        // Passes run every 500 ms: let a few go by, measured by a later sale of ours being archived.
        long ender = svc.createSale(1, Instant.now().minusSeconds(1), Instant.now().plusMillis(500));
        Await.until(Duration.ofSeconds(60), () -> archived(ender), "a pass to archive an ended sale");
        assertFalse(archived(live));
        assertEquals(-1, redis.getBucket(Keys.stock(live)).getExpireTime(), "no expiry on its stock");
        assertEquals(-1, redis.getMap(Keys.buyers(live)).getExpireTime(), "nor on its buyers");
        assertEquals(202, svc.purchase(live, svc.newUser()).status());
    }
}
