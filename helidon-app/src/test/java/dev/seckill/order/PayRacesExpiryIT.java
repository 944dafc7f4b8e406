package dev.seckill.order;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pay racing the expiry, and two pays of one order racing each other, have exactly one winner, decided in the
 * database. The pays are sent around payBy, so some land before it and some after, in whatever order the
 * machine runs them: the assertions hold for every interleaving, none depends on timing.
 */
class PayRacesExpiryIT {

    private static final int ORDERS = 30;
    private final Shoppers shop = new Shoppers();

    @Test
    void everyOrderEndsPaidOrExpiredNeverBothAndEveryAnswerAgreesWithTheDatabase() throws Exception {
        long sale = shop.sale(ORDERS, 2);
        Map<String, Long> owners = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            long user = Shoppers.newUser();
            owners.put(shop.bought(sale, user), user);
        }
        Map<String, Instant> payBy = new HashMap<>();
        for (var o : owners.entrySet()) {
            // Written: CONFIRMED, or on a busy machine already EXPIRED while earlier orders were awaited (its pay
            // then simply loses).
            JsonNode written = shop.awaitWritten(o.getKey(), o.getValue(), Shoppers.CONFIRMATION);
            payBy.put(o.getKey(), Instant.parse(written.path("payBy").asText()));
        }

        Map<String, Integer> answers = new HashMap<>();
        try (ScheduledExecutorService pool = Executors.newScheduledThreadPool(ORDERS, Thread.ofVirtual().factory())) {
            Map<String, Future<HttpJson.Response>> sent = new HashMap<>();
            int i = 0;
            for (var o : owners.entrySet()) {
                // Spread over 600 ms around payBy: early ones should win, late ones lose, the middle ones race.
                long at = payBy.get(o.getKey()).toEpochMilli() - 300 + (i++ * 600L / ORDERS);
                sent.put(o.getKey(), pool.schedule(() -> shop.pay(o.getKey(), o.getValue(), "race-" + o.getKey()),
                        Math.max(0, at - System.currentTimeMillis()), TimeUnit.MILLISECONDS));
            }
            for (var s : sent.entrySet()) {
                answers.put(s.getKey(), s.getValue().get().status());
            }
        }

        int paid = 0;
        for (var o : owners.entrySet()) {
            String state = shop.await(o.getKey(), o.getValue(), answers.get(o.getKey()) == 200 ? "PAID" : "EXPIRED",
                    Shoppers.CONFIRMATION).path("status").asText();
            assertTrue(answers.get(o.getKey()) == 200 || answers.get(o.getKey()) == 410,
                    "only PAID or ORDER_EXPIRED: " + answers);
            paid += state.equals("PAID") ? 1 : 0;
        }
        assertEquals(paid, shop.sql("SELECT COUNT(*) FROM payment p JOIN seckill_order o ON o.order_id = p.order_id "
                + "WHERE o.sale_id = ?", sale),
                "one payment per paid order, none for an expired one");
        JsonNode stats = shop.consistent(sale);
        assertEquals(paid, stats.path("dbPaid").asLong());
        assertEquals(ORDERS - paid, stats.path("dbExpired").asLong());
        assertEquals(ORDERS - paid, stats.path("redisRemaining").asLong(), "each expired unit came back once");
        shop.assertRowsAreTheNamedOrders(sale, owners);
        System.out.println("pay racing expiry: " + paid + " paid, " + (ORDERS - paid) + " expired of " + ORDERS);
        assertTrue(paid > 0 && paid < ORDERS, "the race happened: some pays won and some expiries won ("
                + paid + " paid of " + ORDERS + ")");
    }

    @Test
    void twoTabsPayingOneOrderAtOnceMakeOnePayment() throws Exception {
        long sale = shop.sale(1, 900);
        long user = Shoppers.newUser();
        String orderId = shop.bought(sale, user);
        shop.await(orderId, user, "CONFIRMED", Shoppers.CONFIRMATION);
        List<Future<HttpJson.Response>> tabs = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int tab = 0; tab < 8; tab++) {
                String key = "tab-" + tab;
                tabs.add(pool.submit(() -> shop.pay(orderId, user, key)));
            }
        }
        Set<String> references = new HashSet<>();
        for (Future<HttpJson.Response> t : tabs) {
            HttpJson.Response r = t.get();
            assertEquals(200, r.status(), r.body());
            references.add(r.json().path("paymentReference").asText());
        }
        assertEquals(1, references.size(), "every tab hears of the one payment: " + references);
        assertEquals(1, shop.sql("SELECT COUNT(*) FROM payment WHERE order_id = ?", Long.parseLong(orderId)));
    }
}
