package dev.seckill.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.identity.TokenSigner;
import dev.seckill.purchase.OrderIds;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.SaleRows;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reconcile repairs each kind of damage the crash table of docs/contract.md names, and reports it; a dry run only reports. */
class ReconcileIT {

    private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000_000L * 1000 + 500_000_000_000L);
    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private static RedissonClient redis;
    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
    /** The orders this test's 202s named, orderId to userId (a test instance per test: one sale's). */
    private final Map<String, Long> named = new HashMap<>();

    @BeforeAll
    static void connect() {
        redis = StackRedis.connect(RedisClients::connect);
    }

    @AfterAll
    static void close() {
        redis.shutdown();
    }

    private String admin() {
        return HttpJson.bearer(stack.adminToken());
    }

    private long sale(int stock) {
        return sale(stock, 900);
    }

    private long sale(int stock, int payWindowSeconds) {
        return new AdminSales(stack, http).sale("rc-").priceCents(100).stock(stock)
                .with("payWindowSeconds", payWindowSeconds).create();
    }

    private HttpJson.Response buy(long sale, long user) {
        HttpJson.Response r = http.post(stack.serviceUrl() + "/api/sales/" + sale + "/purchase", null,
                "Authorization", HttpJson.bearer(signer.mint(user)));
        if (r.status() == 202) {
            named.put(r.json().path("orderId").asText(), user);
        }
        return r;
    }

    /** The sale is consistent as sets, and its rows are exactly the orders this test's 202s named. */
    private JsonNode assertConsistent(long sale) {
        JsonNode s = stats(sale);
        assertTrue(s.path("consistent").asBoolean(), s.toString());
        assertEquals(0, s.path("disagreementCount").asInt(), s.toString());
        SaleRows.assertAreTheNamedOrders(stack, sale, named);
        return s;
    }

    /** The kinds of disagreement the stats name, in their order. */
    private List<String> disagreements(long sale) {
        List<String> out = new ArrayList<>();
        stats(sale).path("disagreements").forEach(d -> out.add(d.path("kind").asText()));
        return out;
    }

    private List<Long> buyConfirmed(long sale, int n) {
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long u = USERS.incrementAndGet();
            assertEquals(202, buy(sale, u).status());
            users.add(u);
        }
        Await.until(Duration.ofSeconds(60), () -> stats(sale).path("dbOrders").asLong() == n
                && stats(sale).path("consumerLag").asLong() == 0, n + " orders written");
        return users;
    }

    private JsonNode stats(long sale) {
        return http.get(stack.adminUrl() + "/admin/sales/" + sale + "/stats", "Authorization", admin()).json();
    }

    private JsonNode reconcile(long sale, String query) {
        HttpJson.Response r = Await.value(Duration.ofSeconds(60), () -> {
            HttpJson.Response x = http.post(stack.adminUrl() + "/admin/sales/" + sale + "/reconcile" + query, null,
                    "Authorization", admin());
            return x.status() == 409 ? null : x;
        }, "the writer to catch up so reconcile can run");
        assertEquals(200, r.status(), r.body());
        return r.json();
    }

    private static List<String> actions(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.path("actions").forEach(a -> out.add(a.path("action").asText()));
        return out;
    }

    @Test
    void aReservationThatNeverReachedKafkaIsReleasedAfterTheGracePeriod() {
        long sale = sale(5);
        buyConfirmed(sale, 1);
        // What a service killed between the script and the Kafka ack leaves: stock taken, buyer marked, no event.
        long ghost = USERS.incrementAndGet();
        long orderId = new OrderIds(Clock.fixed(Instant.now().minusSeconds(60), ZoneOffset.UTC), 1).next();
        redis.getMap(Keys.buyers(sale)).put(Long.toString(ghost), Long.toString(orderId));
        redis.getAtomicLong(Keys.stock(sale)).decrementAndGet();
        assertFalse(stats(sale).path("consistent").asBoolean());
        assertEquals(List.of("REDIS_STOCK", "MARK_WITHOUT_ROW"), disagreements(sale));

        JsonNode dry = reconcile(sale, "?dryRun=true&graceSeconds=10");
        assertEquals(List.of("RELEASED"), actions(dry), dry.toString());
        assertTrue(dry.path("dryRun").asBoolean());
        assertEquals(3, stats(sale).path("redisRemaining").asLong(), "a dry run changes nothing");

        JsonNode done = reconcile(sale, "?graceSeconds=10");
        assertEquals(List.of("RELEASED"), actions(done), done.toString());
        JsonNode after = assertConsistent(sale);
        assertEquals(4, after.path("redisRemaining").asLong());
    }

    @Test
    void aUnitReleasedIntoASoldOutSaleReopensItAtTheEdge() {
        long sale = sale(2);
        buyConfirmed(sale, 1);
        // A ghost holds the last unit, and the edge has learnt the sale is sold out.
        long orderId = new OrderIds(Clock.fixed(Instant.now().minusSeconds(60), ZoneOffset.UTC), 1).next();
        redis.getMap(Keys.buyers(sale)).put(Long.toString(USERS.incrementAndGet()), Long.toString(orderId));
        redis.getAtomicLong(Keys.stock(sale)).decrementAndGet();
        String flag = stack.edgeUrl() + "/edge/flags/sold-out/" + sale;
        assertEquals(200, http.send("PUT", flag + "?ttl=600", null).status());
        assertTrue(http.get(flag).json().path("soldOut").asBoolean());

        assertEquals(List.of("RELEASED"), actions(reconcile(sale, "?graceSeconds=10")));
        // A unit coming back clears the flag at every edge, not after the flag's TTL.
        Await.until(Duration.ofSeconds(10), () -> !http.get(flag).json().path("soldOut").asBoolean(),
                "the edge's sold-out flag to be cleared");
    }

    @Test
    void aYoungReservationIsLeftAloneAsPending() {
        long sale = sale(5);
        long user = USERS.incrementAndGet();
        long orderId = new OrderIds(Clock.systemUTC(), 1).next();
        redis.getMap(Keys.buyers(sale)).put(Long.toString(user), Long.toString(orderId));
        redis.getAtomicLong(Keys.stock(sale)).decrementAndGet();
        JsonNode r = reconcile(sale, "?graceSeconds=3600");
        assertEquals(1, r.path("pendingBuyers").asInt(), r.toString());
        assertFalse(actions(r).contains("RELEASED"), r.toString());
        assertEquals(4, stats(sale).path("redisRemaining").asLong());
    }

    /** An old order id is not enough; a resend of it that began within the grace may still land. */
    @Test
    void aReservationWhoseFailedSendWasResentWithinTheGraceIsPendingAndReleasedOnceThatSendIsOld() {
        long sale = sale(5);
        long user = USERS.incrementAndGet();
        long orderId = new OrderIds(Clock.fixed(Instant.now().minusSeconds(60), ZoneOffset.UTC), 1).next();
        redis.getMap(Keys.buyers(sale)).put(Long.toString(user), Long.toString(orderId));
        redis.getAtomicLong(Keys.stock(sale)).decrementAndGet();
        redis.getMap(Keys.unsent(sale)).put(Long.toString(user), orderId + ":" + Instant.now().minusSeconds(5).toEpochMilli());

        JsonNode young = reconcile(sale, "?graceSeconds=10");
        // Released now, the unit kept for the order a 503 named would be on sale again while its resend may still
        // land: the buyer's order lost (docs/invariants.md), the violation the checker calls LOST_ORDER.
        String lost = "LOST_ORDER: reconcile released the unit kept for order " + orderId + ", resent 5 s ago: ";
        assertEquals(1, young.path("pendingBuyers").asInt(), lost + young);
        assertEquals(List.of(), actions(young), lost + "the resend 5 s ago may still land");
        assertEquals(4, stats(sale).path("redisRemaining").asLong());

        redis.getMap(Keys.unsent(sale)).put(Long.toString(user), orderId + ":" + Instant.now().minusSeconds(30).toEpochMilli());
        assertEquals(List.of("RELEASED"), actions(reconcile(sale, "?graceSeconds=10")));
        assertEquals(5, stats(sale).path("redisRemaining").asLong());
        assertFalse(redis.getMap(Keys.unsent(sale)).isExists(), "the release takes the unsent entry with it");
    }

    @Test
    void anUnsentEntryWhoseOrderWasWrittenAnywayIsDroppedAndNothingElseMoves() {
        long sale = sale(5);
        List<Long> users = buyConfirmed(sale, 1);
        long user = users.get(0);
        String orderId = redis.<String, String>getMap(Keys.buyers(sale)).get(Long.toString(user));
        // The send "failed" for the service, yet Kafka had written it: the row is there, the entry is stale.
        redis.getMap(Keys.unsent(sale)).put(Long.toString(user), orderId + ":" + Instant.now().toEpochMilli());
        JsonNode r = reconcile(sale, "?graceSeconds=10");
        assertEquals(List.of("UNSENT_DROPPED"), actions(r), r.toString());
        assertEquals(0, r.path("pendingBuyers").asInt());
        assertFalse(redis.getMap(Keys.unsent(sale)).isExists());
        assertEquals(4, stats(sale).path("redisRemaining").asLong(), "the written order keeps its unit");
        assertEquals(409, buy(sale, user).status(), "a retry is told its order, not resent");
    }

    @Test
    void aWrittenOrderWhoseBuyerMarkRedisLostIsMarkedAgain() {
        long sale = sale(5);
        List<Long> users = buyConfirmed(sale, 2);
        redis.getMap(Keys.buyers(sale)).remove(Long.toString(users.get(0)));
        redis.getAtomicLong(Keys.stock(sale)).incrementAndGet();
        assertFalse(stats(sale).path("consistent").asBoolean());
        assertEquals(List.of("REDIS_STOCK", "ROW_WITHOUT_MARK"), disagreements(sale));
        JsonNode dry = reconcile(sale, "?dryRun=true");
        assertEquals(List.of("MARKED", "STOCK_SET"), actions(dry), dry.toString());
        assertEquals("remaining 4 -> 3", dry.path("actions").get(1).path("detail").asText(),
                "the dry run predicts what conserve.lua will set after the mark");
        JsonNode r = reconcile(sale, "");
        assertEquals(dry.path("actions").get(1), r.path("actions").get(1), r.toString());
        assertTrue(actions(r).contains("MARKED"), r.toString());
        assertTrue(actions(r).contains("STOCK_SET"), r.toString());
        assertConsistent(sale);
        assertEquals(409, buy(sale, users.get(0)).status(), "the buyer is recognised again");
    }

    @Test
    void lostRedisKeysAnswer503UntilRebuiltFromTheDatabase() {
        long sale = sale(5);
        List<Long> users = buyConfirmed(sale, 3);
        redis.getKeys().delete(Keys.stock(sale), Keys.meta(sale), Keys.buyers(sale));
        assertEquals(503, buy(sale, USERS.incrementAndGet()).status(), "no keys: 503, never SOLD_OUT nor fresh stock");
        JsonNode r = reconcile(sale, "");
        assertEquals(List.of("REBUILT"), actions(r), r.toString());
        JsonNode after = assertConsistent(sale);
        assertEquals(2, after.path("redisRemaining").asLong());
        assertEquals(3, after.path("redisBuyers").asLong());
        assertEquals(409, buy(sale, users.get(1)).status(), "earlier buyers are still known");
        assertEquals(202, buy(sale, USERS.incrementAndGet()).status(), "purchases resume");
    }

    @Test
    void aDbStockThatDisagreesWithTheWrittenOrdersIsRepaired() throws Exception {
        long sale = sale(5);
        buyConfirmed(sale, 2);
        try (java.sql.Connection c = stack.db();
             java.sql.PreparedStatement ps = c.prepareStatement("UPDATE sale SET stock = stock + 2 WHERE id = ?")) {
            ps.setLong(1, sale);
            assertEquals(1, ps.executeUpdate());
        }
        assertEquals(5, stats(sale).path("dbStock").asLong());
        assertFalse(stats(sale).path("consistent").asBoolean());
        assertEquals(List.of("DB_STOCK"), disagreements(sale));
        JsonNode dry = reconcile(sale, "?dryRun=true");
        assertEquals(List.of("DB_STOCK_SET"), actions(dry), dry.toString());
        assertEquals(5, stats(sale).path("dbStock").asLong(), "a dry run changes nothing");
        JsonNode done = reconcile(sale, "");
        assertEquals(List.of("DB_STOCK_SET"), actions(done), done.toString());
        JsonNode after = assertConsistent(sale);
        assertEquals(3, after.path("dbStock").asLong());
    }

    /** Buys n units of a sale with a short window and waits until all n orders expired and gave their units back. */
    private List<Long> buyExpired(long sale, int n) {
        List<Long> users = buyConfirmed(sale, n);
        Await.until(Duration.ofSeconds(60), () -> stats(sale).path("dbExpired").asLong() == n
                && stats(sale).path("consistent").asBoolean(), n + " orders expired and their units back");
        return users;
    }

    @Test
    void lostRedisKeysAreRebuiltWithExpiredOrdersCountedAsReturned() {
        long sale = sale(3, 1);
        List<Long> lapsed = buyExpired(sale, 2);
        long buyer = USERS.incrementAndGet();
        assertEquals(202, buy(sale, buyer).status());
        Await.until(Duration.ofSeconds(60), () -> stats(sale).path("dbOrders").asLong() == 3, "the third order written");
        redis.getKeys().delete(Keys.stock(sale), Keys.meta(sale), Keys.buyers(sale), Keys.returned(sale));

        JsonNode r = reconcile(sale, "");
        assertEquals(List.of("REBUILT"), actions(r), r.toString());
        JsonNode after = assertConsistent(sale);
        assertEquals(3, after.path("redisBuyers").asLong(), "lapsed buyers keep their marks");
        assertEquals(2, after.path("redisReturned").asLong());
        assertEquals(409, buy(sale, lapsed.get(0)).status(), "no second attempt for a lapsed buyer");
    }

    @Test
    void anExpiredOrderWhoseUnitRedisLostIsCountedBackOnce() {
        long sale = sale(2, 1);
        List<Long> lapsed = buyExpired(sale, 1);
        String orderId = redis.<String, String>getMap(Keys.buyers(sale)).get(Long.toString(lapsed.get(0)));
        // What Redis losing its last second leaves: the unit and the returned mark gone, the DB says EXPIRED.
        redis.getSet(Keys.returned(sale)).remove(orderId);
        redis.getAtomicLong(Keys.stock(sale)).decrementAndGet();
        assertFalse(stats(sale).path("consistent").asBoolean());
        assertEquals(List.of("REDIS_STOCK", "EXPIRED_NOT_RETURNED"), disagreements(sale));

        JsonNode dry = reconcile(sale, "?dryRun=true");
        assertEquals(List.of("RETURNED", "STOCK_SET"), actions(dry), dry.toString());
        assertEquals("remaining 1 -> 2", dry.path("actions").get(1).path("detail").asText());
        JsonNode done = reconcile(sale, "");
        assertEquals(dry.path("actions"), done.path("actions"), done.toString());
        JsonNode after = assertConsistent(sale);
        assertEquals(2, after.path("redisRemaining").asLong());
        assertEquals(List.of(), actions(reconcile(sale, "")), "nothing left to repair: the unit came back once");
    }

    @Test
    void reconcileRefusesWhileTheWriterIsBehind() {
        long sale = sale(5);
        stack.seckill(STACK_OP, "down", "writer");
        try {
            assertEquals(202, buy(sale, USERS.incrementAndGet()).status());
            HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales/" + sale + "/reconcile", null,
                    "Authorization", admin());
            assertEquals(409, r.status(), r.body());
            assertEquals("WRITER_BEHIND", r.code());
            assertTrue(r.json().path("writerLag").asLong() > 0);
        } finally {
            stack.seckill(STACK_OP, "up", "writer");
        }
    }

    @Test
    void aGraceShorterThanTheDeliveryTimeoutIsRefused() {
        long sale = sale(1);
        HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales/" + sale + "/reconcile?graceSeconds=1", null,
                "Authorization", admin());
        assertEquals(400, r.status(), r.body());
        assertEquals("graceSeconds", r.json().path("field").asText());
    }
}
