package dev.seckill.purchase;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every row of the HTTP contract table for the purchase path, through the running service. */
class PurchaseContractIT {

    private final ServiceClient svc = new ServiceClient();

    @Test
    void acceptedPurchaseAnswers202QueuedWithOrderIdAndLocationThenTheOrderIsConfirmed() {
        long sale = svc.activeSale(5);
        long user = ServiceClient.newUser();
        HttpJson.Response r = svc.purchase(sale, user);
        assertEquals(202, r.status(), r.body());
        assertEquals("QUEUED", r.code());
        String orderId = r.json().path("orderId").asText();
        assertEquals("/api/orders/" + orderId, r.header("Location"));
        Await.until(Duration.ofSeconds(60), () -> "CONFIRMED".equals(svc.order(orderId, user).code()),
                "order " + orderId + " to be written by the batch writer");
    }

    @Test
    void orderStatusIsReadableOnlyByItsOwner() {
        long sale = svc.activeSale(5);
        long user = ServiceClient.newUser();
        String orderId = svc.purchase(sale, user).json().path("orderId").asText();
        HttpJson.Response mine = svc.order(orderId, user);
        assertEquals(200, mine.status(), mine.body());
        assertTrue(mine.code().equals("QUEUED") || mine.code().equals("CONFIRMED"), mine.body());
        assertEquals(404, svc.order(orderId, ServiceClient.newUser()).status());
        assertEquals(401, svc.http.get(svc.base + "/api/orders/" + orderId).status());
    }

    @Test
    void secondPurchaseAnswers409AlreadyPurchasedWithTheSameOrderId() {
        long sale = svc.activeSale(5);
        long user = ServiceClient.newUser();
        String first = svc.purchase(sale, user).json().path("orderId").asText();
        HttpJson.Response again = svc.purchase(sale, user);
        assertEquals(409, again.status(), again.body());
        assertEquals("ALREADY_PURCHASED", again.code());
        assertEquals(first, again.json().path("orderId").asText());
    }

    @Test
    void soldOutAnswers410WithTheEdgeHeaderAndTheSharedBody() {
        long sale = svc.activeSale(1);
        assertEquals(202, svc.purchase(sale, ServiceClient.newUser()).status());
        HttpJson.Response r = svc.purchase(sale, ServiceClient.newUser());
        assertEquals(410, r.status(), r.body());
        assertEquals("SOLD_OUT", r.code());
        assertEquals("1", r.header("X-Seckill-Sold-Out"));
        assertEquals("{\"code\":\"SOLD_OUT\",\"message\":\"sold out\",\"saleId\":" + sale + "}", r.body());
    }

    @Test
    void endedSaleAnswers410SaleEnded() {
        Instant now = Instant.now();
        long sale = svc.createSale(5, now.minusSeconds(10), now.plusSeconds(2));
        Await.until(Duration.ofSeconds(20), () -> "ENDED".equals(
                svc.http.get(svc.base + "/api/sales/" + sale).json().path("state").asText()), "the sale to end");
        HttpJson.Response r = svc.purchase(sale, ServiceClient.newUser());
        assertEquals(410, r.status(), r.body());
        assertEquals("SALE_ENDED", r.code());
        assertNull(r.header("X-Seckill-Sold-Out"));
    }

    @Test
    void notStartedAnswers409WithStartsAtAndRetryAfterInSeconds() {
        Instant now = Instant.now();
        long sale = svc.createSale(5, now.plusSeconds(120), now.plusSeconds(3600));
        HttpJson.Response r = svc.purchase(sale, ServiceClient.newUser());
        assertEquals(409, r.status(), r.body());
        assertEquals("NOT_STARTED", r.code());
        long retry = Long.parseLong(r.header("Retry-After"));
        assertTrue(retry > 100 && retry <= 121, "Retry-After " + retry);
        assertNotNull(Instant.parse(r.json().path("startsAt").asText()));
    }

    @Test
    void aUserBeyondTheBurstAnswers429WithRetryAfterAndRateLimitHeaders() {
        Instant now = Instant.now();
        long sale = svc.createSale(5, now.plusSeconds(600), now.plusSeconds(3600));
        long user = ServiceClient.newUser();
        HttpJson.Response r = null;
        for (int i = 0; i < 10 && (r == null || r.status() != 429); i++) {
            r = svc.purchase(sale, user);
        }
        assertEquals(429, r.status(), r.body());
        assertEquals("RATE_LIMITED", r.code());
        assertTrue(Long.parseLong(r.header("Retry-After")) >= 1);
        assertNotNull(r.header("X-RateLimit-Limit"));
        assertEquals("0", r.header("X-RateLimit-Remaining"));
        assertTrue(Long.parseLong(r.header("X-RateLimit-Reset")) >= 1);
        assertEquals(409, svc.purchase(sale, ServiceClient.newUser()).status(), "another user is not limited");
    }

    @Test
    void unknownSalesAndEveryOtherSpellingOfAnIdAnswer404SaleNotFound() {
        long sale = svc.activeSale(5);
        assertEquals("SALE_NOT_FOUND", svc.purchase(Long.MAX_VALUE, ServiceClient.newUser()).code());
        assertEquals(404, svc.purchase(0, ServiceClient.newUser()).status());
        // "+1", a leading zero, full-width and Arabic-Indic digits were all read as the same sale.
        for (String id : new String[]{"abc", "+" + sale, "0" + sale, "%EF%BC%91", "%D9%A1", "%2B" + sale}) {
            HttpJson.Response bad = svc.http.post(svc.base + "/api/sales/" + id + "/purchase", null,
                    "Authorization", HttpJson.bearer(svc.token(ServiceClient.newUser())));
            assertEquals(404, bad.status(), id + ": " + bad.body());
            assertEquals("SALE_NOT_FOUND", bad.code(), id);
        }
        assertEquals(5, svc.stats(sale).path("redisRemaining").asLong(), "no spelling took stock");
    }

    @Test
    void aBodyWithAQuantityOtherThanOneAnswers400NamingTheField() {
        long sale = svc.activeSale(5);
        HttpJson.Response r = svc.http.post(svc.base + "/api/sales/" + sale + "/purchase", "{\"quantity\":2}",
                "Authorization", HttpJson.bearer(svc.token(ServiceClient.newUser())));
        assertEquals(400, r.status(), r.body());
        assertEquals("quantity", r.json().path("field").asText());
        HttpJson.Response junk = svc.http.post(svc.base + "/api/sales/" + sale + "/purchase", "{nope",
                "Authorization", HttpJson.bearer(svc.token(ServiceClient.newUser())));
        assertEquals(400, junk.status(), junk.body());
        assertEquals(5, svc.stats(sale).path("redisRemaining").asLong(), "refused requests take no stock");
    }

    @Test
    void missingForgedAndExpiredTokensAnswer401Unauthenticated() {
        long sale = svc.activeSale(5);
        String url = svc.base + "/api/sales/" + sale + "/purchase";
        assertEquals(401, svc.http.post(url, null).status());
        String good = svc.token(ServiceClient.newUser());
        String forged = good.substring(0, good.indexOf('.') + 1) + "1" + good.substring(good.indexOf('.', 3));
        HttpJson.Response f = svc.http.post(url, null, "Authorization", HttpJson.bearer(forged));
        assertEquals(401, f.status(), f.body());
        assertEquals("UNAUTHENTICATED", f.code());
        TokenSigner past = new TokenSigner(svc.stack.tokenSecret(), Duration.ofSeconds(1),
                Clock.fixed(Instant.now().minusSeconds(3600), ZoneOffset.UTC));
        assertEquals(401, svc.http.post(url, null, "Authorization", HttpJson.bearer(past.mint(42))).status());
        assertEquals(5, svc.stats(sale).path("redisRemaining").asLong());
    }

    @Test
    void adminRoutesRefuseCallsWithoutTheAdminToken() {
        HttpJson.Response r = svc.http.post(svc.stack.adminUrl() + "/admin/sales", "{}");
        assertEquals(401, r.status(), r.body());
        HttpJson.Response wrong = svc.http.get(svc.stack.adminUrl() + "/admin/sales/1/stats",
                "Authorization", "Bearer nope");
        assertEquals(401, wrong.status());
    }

    @Test
    void thePublicListenerServesNeitherAdminRoutesNorObservabilityButAPlainHealthAnswer() {
        String admin = HttpJson.bearer(svc.stack.adminToken());
        for (String path : new String[]{"/admin/sales/1/stats", "/observe/health", "/observe/metrics"}) {
            HttpJson.Response r = svc.http.get(svc.stack.serviceUrl() + path, "Authorization", admin);
            assertEquals(404, r.status(), path + ": " + r.body());
            assertEquals("NOT_FOUND", r.code(), path);
        }
        HttpJson.Response health = svc.http.get(svc.stack.serviceUrl() + "/api/health");
        assertEquals(200, health.status());
        assertEquals("{\"code\":\"UP\"}", health.body());
        assertEquals(200, svc.http.get(svc.stack.adminUrl() + "/observe/health").status(), "details stay internal");
    }

    @Test
    void errorBodiesCarryTheRequestIdTheEdgeSet() {
        HttpJson.Response r = svc.http.get(svc.base + "/api/sales/" + Long.MAX_VALUE, "X-Request-Id", "it-1234abcd");
        assertEquals(404, r.status());
        assertEquals("it-1234abcd", r.json().path("requestId").asText(), r.body());
    }

    @Test
    void creatingASaleWithABadFieldAnswers400NamingIt() {
        HttpJson.Response r = svc.http.post(svc.stack.adminUrl() + "/admin/sales",
                "{\"name\":\"x\",\"priceCents\":1,\"stock\":0,\"startsAt\":\"2030-01-01T00:00:00Z\",\"endsAt\":\"2030-01-02T00:00:00Z\"}",
                "Authorization", HttpJson.bearer(svc.stack.adminToken()));
        assertEquals(400, r.status(), r.body());
        assertEquals("stock", r.json().path("field").asText());
        HttpJson.Response when = svc.http.post(svc.stack.adminUrl() + "/admin/sales",
                "{\"name\":\"x\",\"priceCents\":1,\"stock\":1,\"startsAt\":\"tomorrow\",\"endsAt\":\"2030-01-02T00:00:00Z\"}",
                "Authorization", HttpJson.bearer(svc.stack.adminToken()));
        assertEquals("startsAt", when.json().path("field").asText());
    }

    @Test
    void saleInfoShowsStateRemainingAndTheServerClock() {
        long sale = svc.activeSale(3);
        svc.purchase(sale, ServiceClient.newUser());
        HttpJson.Response r = svc.http.get(svc.base + "/api/sales/" + sale);
        assertEquals(200, r.status());
        assertEquals("ACTIVE", r.json().path("state").asText());
        assertEquals(2, r.json().path("remaining").asLong());
        assertNotNull(Instant.parse(r.json().path("serverTime").asText()));
        assertEquals(404, svc.http.get(svc.base + "/api/sales/" + Long.MAX_VALUE).status());
    }
}
