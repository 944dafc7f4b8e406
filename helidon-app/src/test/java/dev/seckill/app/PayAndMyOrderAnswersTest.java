package dev.seckill.app;

import dev.seckill.order.OrderState;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/orders/{id}/pay} and {@code GET /api/sales/{id}/order} through the routing, no stack: every
 * answer of the contract's order rows.
 */
@RoutingTest
class PayAndMyOrderAnswersTest {

    private static final FakeApi API = new FakeApi();

    private final DirectClient client;

    PayAndMyOrderAnswersTest(DirectClient client) {
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

    private Reply pay(String orderId, long userId, String key) {
        var req = client.post("/api/orders/" + orderId + "/pay").header(HeaderNames.AUTHORIZATION, API.bearer(userId));
        if (key != null) {
            req.header(HeaderNames.create("Idempotency-Key"), key);
        }
        return Reply.of(req);
    }

    private Reply mine(String saleId, long userId) {
        return Reply.of(client.get("/api/sales/" + saleId + "/order").header(HeaderNames.AUTHORIZATION, API.bearer(userId)));
    }

    @Test
    void payingAConfirmedOrderAnswers200PaidAndARepeatAnswersByteForByteTheSame() {
        API.written.confirmed(500, 1, 7, 900);
        Reply r = pay("500", 7, "3f2c1a9e-key");
        assertEquals(200, r.status(), r.body());
        assertEquals("{\"code\":\"PAID\",\"orderId\":\"500\",\"status\":\"PAID\",\"saleId\":1,\"userId\":7,"
                + "\"payBy\":\"2030-01-01T10:15:00Z\",\"paidAt\":\"2030-01-01T10:00:00Z\","
                + "\"paymentReference\":\"" + API.written.payments.get(500L).reference() + "\"}", r.body());
        assertEquals(r.body(), pay("500", 7, "3f2c1a9e-key").body());
        assertEquals(1, API.provider.charges.size(), "one charge");
        assertEquals("PAID", Reply.of(client.get("/api/orders/500")
                .header(HeaderNames.AUTHORIZATION, API.bearer(7))).code());
    }

    @Test
    void payingWithoutAnIdempotencyKeyAnswers400NamingTheHeader() {
        API.written.confirmed(500, 1, 7, 900);
        for (String bad : new String[]{null, "", "has space", "x".repeat(65)}) {
            Reply r = pay("500", 7, bad);
            assertEquals(400, r.status(), String.valueOf(bad));
            assertEquals("BAD_REQUEST", r.code());
            assertEquals("Idempotency-Key", r.json().path("field").asText());
        }
        assertEquals(OrderState.CONFIRMED, API.written.orders.get(500L).state());
    }

    @Test
    void payingAQueuedOrderAnswers409NotConfirmedWithRetryAfter() {
        API.marks.put("1:7", "600");
        Reply r = pay("600", 7, "k");
        assertEquals(409, r.status(), r.body());
        assertEquals("ORDER_NOT_CONFIRMED", r.code());
        assertEquals("600", r.json().path("orderId").asText());
        assertEquals("1", r.header("Retry-After").orElseThrow());
        assertTrue(r.json().has("requestId"));
    }

    @Test
    void payingAfterPayByAnswers410OrderExpired() {
        API.written.confirmed(500, 1, 7, -1);
        Reply r = pay("500", 7, "k");
        assertEquals(410, r.status(), r.body());
        assertEquals("ORDER_EXPIRED", r.code());
        API.written.expire(500);
        assertEquals("ORDER_EXPIRED", pay("500", 7, "k").code());
        assertEquals("EXPIRED", Reply.of(client.get("/api/orders/500")
                .header(HeaderNames.AUTHORIZATION, API.bearer(7))).code());
    }

    @Test
    void payingSomeoneElsesOrAnUnknownOrderAnswers404AndNoTokenAnswers401() {
        API.written.confirmed(500, 1, 7, 900);
        assertEquals("ORDER_NOT_FOUND", pay("500", 8, "k").code());
        assertEquals(404, pay("501", 7, "k").status());
        assertEquals("ORDER_NOT_FOUND", pay("0500", 7, "k").code());
        assertEquals(401, Reply.of(client.post("/api/orders/500/pay")
                .header(HeaderNames.create("Idempotency-Key"), "k")).status());
        assertEquals(0, API.provider.charges.size());
    }

    @Test
    void aDeclinedPaymentAnswers402AndTheOrderStaysPayable() {
        API.written.confirmed(500, 1, 7, 900);
        API.provider.decline = true;
        Reply r = pay("500", 7, "k");
        assertEquals(402, r.status(), r.body());
        assertEquals("PAYMENT_DECLINED", r.code());
        API.provider.decline = false;
        assertEquals("PAID", pay("500", 7, "k2").code());
    }

    @Test
    void myOrderInASaleIsTheBuyersOrderInEveryState() {
        API.marks.put("1:7", "600");
        Reply queued = mine("1", 7);
        assertEquals(200, queued.status(), queued.body());
        assertEquals("QUEUED", queued.code());
        assertEquals("600", queued.json().path("orderId").asText());

        API.written.confirmed(600, 1, 7, 900);
        Reply confirmed = mine("1", 7);
        assertEquals("CONFIRMED", confirmed.code());
        assertEquals("2030-01-01T10:15:00Z", confirmed.json().path("payBy").asText());
        assertEquals("2030-01-01T10:00:00Z", confirmed.json().path("serverTime").asText());

        API.written.expire(600);
        assertEquals("EXPIRED", mine("1", 7).code(), "a lapsed buyer keeps the mark, and sees the order expired");
    }

    @Test
    void myOrderIs404NoOrderForAShopperWithoutOneAndSaleNotFoundForAnUnknownSale() {
        API.marks.put("1:7", "600");
        Reply none = mine("1", 8);
        assertEquals(404, none.status());
        assertEquals("NO_ORDER", none.code());
        assertEquals(1, none.json().path("saleId").asLong());
        assertEquals("SALE_NOT_FOUND", mine("9", 7).code());
        assertEquals("SALE_NOT_FOUND", mine("01", 7).code());
        assertEquals(401, Reply.of(client.get("/api/sales/1/order")).status());
    }
}
