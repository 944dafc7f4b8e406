package dev.seckill.order;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Orders a shopper can pay, every answer over HTTP through the running service: payBy once confirmed,
 * the pay and its repeat, each refusal, the shopper's order in a sale, and a short window that lapses and gives the
 * unit back to the sale, where another shopper buys it.
 */
class OrderPaymentIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private final Shoppers shop = new Shoppers();

    @Test
    void aConfirmedOrderShowsPayByAndIsPaidOnceWhateverTheRepeats() {
        long sale = shop.sale(5, 900);
        long user = Shoppers.newUser();
        String orderId = shop.bought(sale, user);
        JsonNode confirmed = shop.await(orderId, user, "CONFIRMED", Shoppers.CONFIRMATION);
        Instant payBy = Instant.parse(confirmed.path("payBy").asText());
        Instant server = Instant.parse(confirmed.path("serverTime").asText());
        assertTrue(payBy.isAfter(server.plusSeconds(890)) && !payBy.isAfter(server.plusSeconds(900)),
                "payBy is the written time + 900 s: " + confirmed);

        String key = UUID.randomUUID().toString();
        HttpJson.Response paid = shop.pay(orderId, user, key);
        assertEquals(200, paid.status(), paid.body());
        assertEquals("PAID", paid.code());
        assertEquals(payBy.toString(), paid.json().path("payBy").asText());
        assertNotNull(paid.json().path("paidAt").textValue());
        assertEquals(paid.body(), shop.pay(orderId, user, key).body(), "a repeat with the same key answers the same");
        assertEquals(paid.json().path("paymentReference"), shop.pay(orderId, user, "another-key").json()
                .path("paymentReference"), "a paid order stays paid by its one payment");
        assertEquals("PAID", shop.order(orderId, user).code());
        assertEquals(1, shop.sql("SELECT COUNT(*) FROM payment WHERE order_id = ?", Long.parseLong(orderId)));

        JsonNode stats = shop.consistent(sale);
        assertEquals(1, stats.path("dbPaid").asLong());
        assertEquals(4, stats.path("redisRemaining").asLong(), "a paid order keeps its unit");
    }

    @Test
    void payingWithoutAKeyOrSomeoneElsesOrderIsRefused() {
        long sale = shop.sale(5, 900);
        long user = Shoppers.newUser();
        String orderId = shop.bought(sale, user);
        shop.await(orderId, user, "CONFIRMED", Shoppers.CONFIRMATION);

        HttpJson.Response noKey = shop.pay(orderId, user, null);
        assertEquals(400, noKey.status(), noKey.body());
        assertEquals("Idempotency-Key", noKey.json().path("field").asText());
        HttpJson.Response other = shop.pay(orderId, Shoppers.newUser(), "k");
        assertEquals(404, other.status(), other.body());
        assertEquals("ORDER_NOT_FOUND", other.code());
        assertEquals(404, shop.pay("9" + orderId.substring(1), user, "k").status());
        assertEquals(401, shop.http.post(shop.base + "/api/orders/" + orderId + "/pay", null,
                "Idempotency-Key", "k").status());
        assertEquals("CONFIRMED", shop.order(orderId, user).code(), "nothing was paid");
    }

    @Test
    void myOrderInASaleFindsTheBuyerFromAnyDeviceAndNoOrderForOthers() {
        long sale = shop.sale(1, 900);
        long buyer = Shoppers.newUser();
        String orderId = shop.bought(sale, buyer);
        shop.await(orderId, buyer, "CONFIRMED", Shoppers.CONFIRMATION);

        HttpJson.Response mine = shop.mine(sale, buyer);
        assertEquals(200, mine.status(), mine.body());
        assertEquals(orderId, mine.json().path("orderId").asText());
        assertEquals("CONFIRMED", mine.code());
        assertFalse(mine.json().path("payBy").isNull());

        long late = Shoppers.newUser();
        assertEquals(410, shop.buy(sale, late).status(), "sold out");
        HttpJson.Response none = shop.mine(sale, late);
        assertEquals(404, none.status(), none.body());
        assertEquals("NO_ORDER", none.code());
        assertEquals("SALE_NOT_FOUND", shop.mine(Long.MAX_VALUE, buyer).code());
        assertEquals(401, shop.http.get(shop.base + "/api/sales/" + sale + "/order").status());
    }

    @Test
    void aShortWindowLapsesTheUnitComesBackAndAnotherShopperBuysIt() {
        long sale = shop.sale(1, 1);
        long lapsing = Shoppers.newUser();
        String orderId = shop.bought(sale, lapsing);
        JsonNode expired = shop.await(orderId, lapsing, "EXPIRED", Shoppers.CONFIRMATION);
        assertFalse(expired.path("payBy").isNull());

        HttpJson.Response late = shop.pay(orderId, lapsing, "k");
        assertEquals(410, late.status(), late.body());
        assertEquals("ORDER_EXPIRED", late.code());
        assertEquals("EXPIRED", shop.mine(sale, lapsing).code(), "the lapsed buyer still sees the order");
        HttpJson.Response again = shop.buy(sale, lapsing);
        assertEquals(409, again.status(), "no second attempt in the sale: " + again.body());
        assertEquals(orderId, again.json().path("orderId").asText());

        // The unit is on sale again: the service's flag was cleared with it, so the next shopper gets it at once.
        long next = Shoppers.newUser();
        String second = Await.value(Duration.ofSeconds(10), () -> {
            HttpJson.Response r = shop.buy(sale, next);
            return r.status() == 202 ? r.json().path("orderId").asText() : null;
        }, "the returned unit to be sold again");
        shop.await(second, next, "CONFIRMED", Shoppers.CONFIRMATION);
        assertEquals("PAID", shop.pay(second, next, "k").code());

        JsonNode stats = shop.consistent(sale);
        assertEquals(0, stats.path("redisRemaining").asLong());
        assertEquals(1, stats.path("dbExpired").asLong());
        assertEquals(1, stats.path("dbPaid").asLong());
        assertEquals(1, stats.path("redisReturned").asLong(), "the unit came back once");
        assertEquals(0, stats.path("dbStock").asLong());
    }

    @Test
    void aUnitComingBackClearsTheEdgesSoldOutFlagSoTheNextShopperGetsItThroughTheEdge() {
        long sale = shop.sale(1, 2);
        long lapsing = Shoppers.newUser();
        String orderId = shop.bought(sale, lapsing);
        shop.await(orderId, lapsing, "CONFIRMED", Shoppers.CONFIRMATION);
        // A flag far longer than any wait below: only the expiry's clear can lift it in time.
        String flag = shop.stack.edgeUrl() + "/edge/flags/sold-out/" + sale;
        assertEquals(200, shop.http.send("PUT", flag + "?ttl=600", null).status());
        assertTrue(shop.http.get(flag).json().path("soldOut").asBoolean());

        shop.await(orderId, lapsing, "EXPIRED", Shoppers.CONFIRMATION);
        Await.until(Duration.ofSeconds(30), () -> !shop.http.get(flag).json().path("soldOut").asBoolean(),
                "the expiry to clear the edge's sold-out flag");
        Shoppers throughEdge = new Shoppers(shop.stack.edgeUrl());
        long next = Shoppers.newUser();
        String resold = Await.value(Duration.ofSeconds(10), () -> {
            HttpJson.Response r = throughEdge.buy(sale, next);
            return r.status() == 202 ? r.json().path("orderId").asText() : null;
        }, "the returned unit to be sold through the edge");
        shop.await(resold, next, "CONFIRMED", Shoppers.CONFIRMATION);
    }

    @Test
    void aQueuedOrderCannotBePaidYetAndHasNoPayBy() {
        long sale = shop.sale(5, 900);
        long user = Shoppers.newUser();
        shop.stack.seckill(STACK_OP, "down", "writer");
        String orderId;
        try {
            orderId = shop.bought(sale, user);
            HttpJson.Response queued = shop.mine(sale, user);
            assertEquals("QUEUED", queued.code(), queued.body());
            assertTrue(queued.json().path("payBy").isNull());
            HttpJson.Response r = shop.pay(orderId, user, "k");
            assertEquals(409, r.status(), r.body());
            assertEquals("ORDER_NOT_CONFIRMED", r.code());
            assertEquals("1", r.header("Retry-After"));
        } finally {
            shop.stack.seckill(STACK_OP, "up", "writer");
        }
        shop.await(orderId, user, "CONFIRMED", Shoppers.CONFIRMATION);
        assertEquals("PAID", shop.pay(orderId, user, "k").code(), "payable once written");
    }
}
