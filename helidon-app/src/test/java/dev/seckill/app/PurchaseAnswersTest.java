package dev.seckill.app;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.purchase.PurchaseOutcome;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        API.routes.routing(routing);
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
        assertEquals(1, API.producer.history().size(), "the order is in Kafka before the answer");
        assertEquals(before + 1, API.answered("QUEUED"));
    }

    @Test
    void aSecondPurchaseAnswers409AlreadyPurchasedWithTheFirstOrderId() {
        API.reserver.answer(new PurchaseOutcome.AlreadyPurchased("123456"));
        Reply r = buy();
        assertEquals(409, r.status());
        assertEquals("{\"code\":\"ALREADY_PURCHASED\",\"orderId\":\"123456\",\"saleId\":1,"
                + "\"message\":\"you already bought this sale\"}", r.body());
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
    void noForgedOrExpiredTokenAnswers401() {
        Reply none = Reply.of(client.post(ACTIVE));
        assertEquals(401, none.status());
        assertEquals("UNAUTHENTICATED", none.code());
        String good = API.signer.mint(BUYER);
        String forged = good.replace("v1." + BUYER + ".", "v1.43.");
        Reply f = Reply.of(client.post(ACTIVE).header(HeaderNames.AUTHORIZATION, "Bearer " + forged));
        assertEquals(401, f.status());
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
    void aRedisFailureAnswers503WithRetryAfter() {
        API.reserver.fail(new DependencyUnavailable("the Redis keys of sale 1 are missing"));
        double before = API.answered("UNAVAILABLE");
        Reply r = buy();
        assertEquals(503, r.status());
        assertEquals("UNAVAILABLE", r.code());
        assertEquals(Optional.of("1"), r.header("Retry-After"));
        assertEquals(before + 1, API.answered("UNAVAILABLE"));
    }

    @Test
    void aKafkaFailureAnswers503AndGivesTheUnitBack() {
        API.producer.sendException = new KafkaException("no metadata in 2000 ms");
        Reply r = buy();
        assertEquals(503, r.status());
        assertEquals("UNAVAILABLE", r.code());
        assertEquals(Optional.of("1"), r.header("Retry-After"));
        assertEquals(1, API.reserver.givenBack().size());
    }
}
