package dev.seckill.app;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /api/orders/{id}} and {@code GET /api/sales/{id}} through the routing, no stack. */
@RoutingTest
class OrderAndSaleAnswersTest {

    private static final FakeApi API = new FakeApi();

    private final DirectClient client;

    OrderAndSaleAnswersTest(DirectClient client) {
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

    private Reply order(long orderId, long userId) {
        return Reply.of(client.get("/api/orders/" + orderId).header(HeaderNames.AUTHORIZATION, API.bearer(userId)));
    }

    @Test
    void aWrittenOrderIsConfirmedToItsOwnerWithItsPayByAndTheServerClock() {
        API.written.confirmed(500, 1, 7, 900);
        Reply r = order(500, 7);
        assertEquals(200, r.status());
        assertEquals("{\"code\":\"CONFIRMED\",\"orderId\":\"500\",\"status\":\"CONFIRMED\",\"saleId\":1,\"userId\":7,"
                + "\"payBy\":\"2030-01-01T10:15:00Z\",\"paidAt\":null,\"serverTime\":\"2030-01-01T10:00:00Z\"}", r.body());
    }

    @Test
    void aReservedOrderNotYetWrittenIsQueued() {
        API.marks.put("1:7", "600");
        Reply r = order(600, 7);
        assertEquals(200, r.status());
        assertEquals("QUEUED", r.code());
        assertEquals(1, r.json().path("saleId").asLong());
        assertTrue(r.json().path("payBy").isNull(), "the window starts once the order is written");
    }

    @Test
    void anotherUsersOrderIsNotFoundAsIfItDidNotExist() {
        API.written.confirmed(500, 1, 7, 900);
        API.marks.put("1:7", "600");
        assertEquals("ORDER_NOT_FOUND", order(500, 8).code());
        assertEquals(404, order(600, 8).status());
    }

    @Test
    void anyOtherSpellingOfAnOrderIdAnswers404OrderNotFound() {
        API.written.confirmed(500, 1, 7, 900);
        for (String id : new String[]{"+500", "0500", "abc", "0", "99999999999999999999"}) {
            Reply r = Reply.of(client.get("/api/orders/" + id).header(HeaderNames.AUTHORIZATION, API.bearer(7)));
            assertEquals(404, r.status(), id);
            assertEquals("ORDER_NOT_FOUND", r.code(), id);
        }
    }

    @Test
    void anyOtherSpellingOfASaleIdAnswers404SaleNotFound() {
        for (String id : new String[]{"+1", "01", "0", "abc", "1.0"}) {
            Reply r = Reply.of(client.get("/api/sales/" + id));
            assertEquals(404, r.status(), id);
            assertEquals("SALE_NOT_FOUND", r.code(), id);
        }
    }

    @Test
    void anOrderWithoutATokenAnswers401() {
        assertEquals(401, Reply.of(client.get("/api/orders/500")).status());
    }

    @Test
    void aSaleShowsItsFactsRemainingStateAndTheServerClock() {
        Reply r = Reply.of(client.get("/api/sales/1"));
        assertEquals(200, r.status());
        assertEquals("{\"id\":1,\"name\":\"phone\",\"priceCents\":1999,\"stockTotal\":10,\"remaining\":7,"
                + "\"state\":\"ACTIVE\",\"startsAt\":\"2030-01-01T09:59:00Z\",\"endsAt\":\"2030-01-01T11:00:00Z\","
                + "\"serverTime\":\"2030-01-01T10:00:00Z\",\"payWindowSeconds\":900,\"protection\":\"none\","
                + "\"waitingRoom\":null}", r.body());
        assertEquals("UPCOMING", Reply.of(client.get("/api/sales/2")).json().path("state").asText());
        assertEquals("SALE_NOT_FOUND", Reply.of(client.get("/api/sales/9")).code());
    }

    @Test
    void theSaleListHoldsTheCurrentSales() {
        Reply r = Reply.of(client.get("/api/sales"));
        assertEquals(200, r.status());
        assertEquals(FakeApi.SALES, r.json().path("sales").size());
    }
}
