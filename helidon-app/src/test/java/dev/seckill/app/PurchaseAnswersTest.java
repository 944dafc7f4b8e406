package dev.seckill.app;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.http.Deadline;
import dev.seckill.identity.TokenSigner;
import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.testkit.Jwts;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.apache.kafka.common.KafkaException;
import org.redisson.client.RedisConnectionException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every answer of {@code POST /api/sales/{id}/purchase}: status, headers and body, through the routing, no stack. */
@RoutingTest
class PurchaseAnswersTest {

    private static final FakeApi API = new FakeApi();
    private static final long BUYER = 42;
    private static final String ACTIVE = "/api/sales/" + FakeApi.ACTIVE.id() + "/purchase";

    private final DirectClient client;

    PurchaseAnswersTest(DirectClient client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        API.routes.api(routing);
    }

    @BeforeEach
    void reset() {
        API.reset();
    }

    private Reply buy(String path, String body) {
        return Reply.of(client.post(path).header(HeaderNames.AUTHORIZATION, API.bearer(BUYER)), body);
    }

    private Reply buy() {
        return buy(ACTIVE, null);
    }

    @Test
    void aReservedAndPublishedOrderAnswers202QueuedWithItsLocation() {
        double before = API.answered("QUEUED");
        Reply r = buy();
        assertEquals(202, r.status(), r.body());
        assertTrue(r.isJson());
        String orderId = r.json().path("orderId").asText();
        assertEquals("{\"code\":\"QUEUED\",\"orderId\":\"" + orderId + "\",\"saleId\":1,\"message\":\"your order is queued\"}",
                r.body());
        assertEquals(Optional.of("/api/orders/" + orderId), r.header("Location"));
        assertEquals(Optional.of(orderId), r.header("X-Order-Id"), "for the edge's purchase log");
        assertEquals(1, API.producer.history().size(), "the order is in Kafka before the answer");
        assertEquals(before + 1, API.answered("QUEUED"));
    }

    /**
     * The edge's budget: a purchase whose dependencies do not decide it in time answers 503 UNAVAILABLE with
     * Retry-After while its work is still held up (the work then ends on its own).
     */
    @Test
    void aPurchaseNotDecidedWithinItsBudgetAnswers503WhileItsWorkIsStillHeldUp() throws Exception {
        CountDownLatch heldUp = new CountDownLatch(1);
        AtomicBoolean ended = new AtomicBoolean();
        API.reserver.duringReserve(() -> {
            try {
                heldUp.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended.set(true);
        });
        try {
            Reply r = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, API.bearer(BUYER))
                    .header(HeaderNames.create(Deadline.HEADER_NAME), "200"), null);
            assertEquals(503, r.status(), r.body());
            assertEquals("UNAVAILABLE", r.json().path("code").asText(), r.body());
            assertTrue(r.header("Retry-After").isPresent(), "503 without Retry-After");
            assertFalse(ended.get(), "answered only after the work ended");
            assertEquals(1, API.reserver.reserveCalls());
        } finally {
            heldUp.countDown();
        }
    }

    @Test
    void aBudgetThatIsNotAPositiveNumberOfMillisecondsIsIgnored() {
        for (String budget : new String[] {"abc", "0", "-5", "99999999", "1.5"}) {
            API.reset();
            Reply r = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, API.bearer(BUYER))
                    .header(HeaderNames.create(Deadline.HEADER_NAME), budget), null);
            assertEquals(202, r.status(), budget + ": " + r.body());
        }
    }

    @Test
    void aSecondPurchaseAnswers409AlreadyPurchasedWithTheFirstOrderId() {
        API.reserver.answer(new PurchaseOutcome.AlreadyPurchased("123456"));
        Reply r = buy();
        assertEquals(409, r.status());
        assertEquals("{\"code\":\"ALREADY_PURCHASED\",\"orderId\":\"123456\",\"saleId\":1,"
                + "\"message\":\"you already bought this sale\"}", r.body());
        assertEquals(Optional.of("123456"), r.header("X-Order-Id"));
    }

    @Test
    void soldOutAnswers410WithTheEdgeFlagHeaderAndTheSharedBody() {
        API.reserver.answer(new PurchaseOutcome.SoldOut(false));
        for (int i = 0; i < 2; i++) {
            Reply r = buy();
            assertEquals(410, r.status());
            assertEquals(Optional.of("1"), r.header("X-Seckill-Sold-Out"));
            assertEquals("{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"saleId\":1}", r.body());
        }
        assertEquals(1, API.reserver.reserveCalls(), "the second answer came from the local flag");
    }

    @Test
    void anEndedSaleAnswers410SaleEndedWithoutTheSoldOutHeader() {
        API.reserver.answer(new PurchaseOutcome.SaleEnded());
        Reply r = buy();
        assertEquals(410, r.status());
        assertEquals("SALE_ENDED", r.code());
        assertEquals(Optional.empty(), r.header("X-Seckill-Sold-Out"));
    }

    @Test
    void tooEarlyAnswers409NotStartedWithStartsAtAndRetryAfterRoundedUp() {
        API.reserver.answer(new PurchaseOutcome.NotStarted(FakeApi.UPCOMING.startsAt(), 90_500));
        Reply r = buy("/api/sales/" + FakeApi.UPCOMING.id() + "/purchase", null);
        assertEquals(409, r.status());
        assertEquals("NOT_STARTED", r.code());
        assertEquals(Optional.of("91"), r.header("Retry-After"));
        assertEquals(FakeApi.UPCOMING.startsAt().toString(), r.json().path("startsAt").asText());
        assertEquals(91, r.json().path("retryAfter").asLong());
    }

    @Test
    void aBuyerOverTheLimitAnswers429WithRetryAfterAndRateLimitHeaders() {
        API.reserver.answer(new PurchaseOutcome.RateLimited(1_200));
        Reply r = buy();
        assertEquals(429, r.status());
        assertEquals("RATE_LIMITED", r.code());
        assertEquals(Optional.of("2"), r.header("Retry-After"));
        assertEquals(Optional.of("3"), r.header("X-RateLimit-Limit"), "the burst");
        assertEquals(Optional.of("0"), r.header("X-RateLimit-Remaining"));
        assertEquals(Optional.of("2"), r.header("X-RateLimit-Reset"));
    }

    @Test
    void anUnknownSaleAnswers404WithoutReachingTheReserver() {
        Reply r = buy("/api/sales/999/purchase", null);
        assertEquals(404, r.status());
        assertEquals("SALE_NOT_FOUND", r.code());
        assertEquals(0, API.reserver.reserveCalls());
    }

    @Test
    void anyOtherSpellingOfASaleIdAnswers404SaleNotFound() {
        // "+1", "01", full-width 1, Arabic-Indic 1, beyond a long: Java's Long.parseLong takes several of them as 1.
        for (String id : new String[]{"+1", "01", "\uff11", "\u0661", "0", "-1", "abc", "99999999999999999999"}) {
            Reply r = buy("/api/sales/" + java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8)
                    + "/purchase", null);
            assertEquals(404, r.status(), id + ": " + r.body());
            assertEquals("SALE_NOT_FOUND", r.code(), id);
        }
        assertEquals(0, API.reserver.reserveCalls(), "no spelling reached the stock");
    }

    @Test
    void errorBodiesCarryTheEdgesRequestIdOrOneOfTheirOwn() {
        Reply echoed = Reply.of(client.post("/api/sales/999/purchase").header(HeaderNames.AUTHORIZATION, API.bearer(BUYER))
                .header(HeaderNames.create("X-Request-Id"), "edge-4f2a9c"));
        assertEquals("{\"code\":\"SALE_NOT_FOUND\",\"message\":\"no such sale\",\"requestId\":\"edge-4f2a9c\"}",
                echoed.body());
        Reply unsafe = Reply.of(client.post(ACTIVE).header(HeaderNames.create("X-Request-Id"), "<script>x</script>"));
        assertEquals(401, unsafe.status());
        assertTrue(unsafe.json().path("requestId").asText().matches("[0-9a-f]{32}"), unsafe.body());
        Reply none = Reply.of(client.post(ACTIVE));
        assertTrue(none.json().path("requestId").asText().matches("[0-9a-f]{32}"), none.body());
    }

    @Test
    void noForgedOrExpiredTokenAnswers401() {
        Reply none = Reply.of(client.post(ACTIVE));
        assertEquals(401, none.status());
        assertEquals("UNAUTHENTICATED", none.code());
        assertEquals("TOKEN_MISSING", none.json().path("reason").asText(), none.body());
        String forged = Jwts.withClaim(API.signer.mint(BUYER), "sub", "43");
        Reply f = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, "Bearer " + forged));
        assertEquals(401, f.status());
        assertEquals("BAD_SIGNATURE", f.json().path("reason").asText(), f.body());
        assertEquals(0, API.reserver.reserveCalls());
    }

    @Test
    void a401SaysWhyTheTokenWasRefusedWithAStableReason() {
        String expired = new TokenSigner(FakeApi.SECRET, Duration.ofSeconds(1),
                Clock.offset(API.clock, Duration.ofHours(-1))).mint(BUYER);
        double before = API.registry.counter("seckill.auth.refused", "reason", "TOKEN_EXPIRED").count();
        Reply e = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, "Bearer " + expired));
        assertEquals(401, e.status());
        assertEquals(before + 1, API.registry.counter("seckill.auth.refused", "reason", "TOKEN_EXPIRED").count(),
                "refusals are counted by reason");
        assertEquals("{\"code\":\"UNAUTHENTICATED\",\"message\":\"the token has expired\",\"reason\":\"TOKEN_EXPIRED\","
                + "\"requestId\":\"" + e.json().path("requestId").asText() + "\"}", e.body());
        Reply junk = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, "Bearer v1.42.1900000000.c2ln"));
        assertEquals("MALFORMED", junk.json().path("reason").asText(), junk.body());
        assertEquals(0, API.reserver.reserveCalls());
    }

    @Test
    void aQuantityOtherThanOneOrABodyThatIsNotJsonAnswers400NamingTheField() {
        Reply two = buy(ACTIVE, "{\"quantity\":2}");
        assertEquals(400, two.status());
        assertEquals("BAD_REQUEST", two.code());
        assertEquals("quantity", two.json().path("field").asText());
        Reply junk = buy(ACTIVE, "{nope");
        assertEquals(400, junk.status());
        assertEquals("body", junk.json().path("field").asText());
        assertEquals(0, API.reserver.reserveCalls(), "refused requests take no stock");
    }

    @Test
    void aRedisFailureAnswers503WithRetryAfterAndAFixedMessage() {
        API.reserver.fail(new DependencyUnavailable("failed to run purchase.lua for sale 1",
                new RedisConnectionException("Unable to connect to Redis server: 127.0.0.1/127.0.0.1:16379")));
        double before = API.answered("UNAVAILABLE");
        Reply r = buy();
        assertEquals(503, r.status());
        assertEquals("UNAVAILABLE", r.code());
        assertEquals(Optional.of("1"), r.header("Retry-After"));
        assertFalse(r.body().contains("Redis") || r.body().contains("127.0.0.1") || r.body().contains("lua"), r.body());
        assertEquals(before + 1, API.answered("UNAVAILABLE"));
    }

    @Test
    void aKafkaFailureAnswers503NamingTheOrderThatKeepsTheUnitForTheRetry() {
        API.producer.sendException = new KafkaException("no metadata in 2000 ms");
        Reply r = buy();
        assertEquals(503, r.status());
        assertEquals("UNAVAILABLE", r.code());
        assertEquals(Optional.of("1"), r.header("Retry-After"));
        assertEquals(0, API.ledger.givenBack().size(), "Kafka may have written it");
        assertEquals(1, API.ledger.unsent().size());
        assertEquals(Long.toString(API.ledger.unsent().get(0)), r.json().path("orderId").asText(),
                "the 503 names the order that holds the unit: " + r.body());
        assertFalse(r.body().contains("metadata"), r.body());
    }
}
