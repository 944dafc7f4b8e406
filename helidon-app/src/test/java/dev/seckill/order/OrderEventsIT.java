package dev.seckill.order;

import dev.seckill.event.OrderStateEvent;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static dev.seckill.event.OrderStateEvent.Type.CONFIRMED;
import static dev.seckill.event.OrderStateEvent.Type.EXPIRED;
import static dev.seckill.event.OrderStateEvent.Type.PAID;
import static dev.seckill.event.OrderStateEvent.Type.UNIT_RETURNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order events a shop reads from {@code seckill.order-events} (docs/shop.md), through the running stack: each
 * order's changes in order (CONFIRMED then PAID; CONFIRMED, EXPIRED, then its unit returned), with the request that
 * made each, every record checked against the AsyncAPI document; and none lost when the writer, the process that
 * relays them, is killed with SIGKILL between a change and its publish.
 */
class OrderEventsIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final Duration EVENTS = Duration.ofSeconds(90);
    private final Shoppers shop = new Shoppers();
    private final EventsTopic topic = new EventsTopic();

    @AfterEach
    void close() {
        topic.close();
    }

    @Test
    void aShopReadsEachOrderConfirmedThenPaidOrConfirmedThenExpiredAndItsUnitReturnedInOrder() {
        long paying = shop.sale(2, 900);
        long lapsing = shop.sale(2, 1);
        Map<String, List<OrderStateEvent.Type>> expected = new LinkedHashMap<>();
        Map<String, String> purchaseIds = new LinkedHashMap<>();
        Map<String, Long> users = new LinkedHashMap<>();
        for (long sale : List.of(paying, lapsing)) {
            for (int i = 0; i < 2; i++) {
                long user = Shoppers.newUser();
                String requestId = "buy-" + UUID.randomUUID();
                HttpJson.Response r = shop.buy(sale, user, requestId);
                assertEquals(202, r.status(), r.body());
                String orderId = r.json().path("orderId").asText();
                purchaseIds.put(orderId, requestId);
                users.put(orderId, user);
                expected.put(orderId, sale == paying ? List.of(CONFIRMED, PAID) : List.of(CONFIRMED, EXPIRED, UNIT_RETURNED));
            }
        }
        Map<String, String> payIds = new LinkedHashMap<>();
        for (String orderId : expected.keySet()) {
            if (expected.get(orderId).contains(PAID)) {
                shop.await(orderId, users.get(orderId), "CONFIRMED", Shoppers.CONFIRMATION);
                String requestId = "pay-" + UUID.randomUUID();
                assertEquals("PAID", shop.pay(orderId, users.get(orderId), "k", requestId).code());
                payIds.put(orderId, requestId);
            }
        }

        topic.awaitEvents(expected, EVENTS);
        for (String orderId : expected.keySet()) {
            List<OrderStateEvent> events = topic.of(orderId);
            long sale = expected.get(orderId).contains(PAID) ? paying : lapsing;
            for (OrderStateEvent e : events) {
                assertEquals(sale, e.saleId(), e.toString());
                assertEquals(users.get(orderId), e.userId(), e.toString());
                assertEquals(e.type().state(), e.state(), e.toString());
            }
            assertEquals(purchaseIds.get(orderId), events.getFirst().requestId(), "CONFIRMED names the purchase");
            if (payIds.containsKey(orderId)) {
                assertEquals(payIds.get(orderId), events.get(1).requestId(), "PAID names the pay");
            } else {
                assertNull(events.get(1).requestId(), "the expiry is no request");
                assertEquals("EXPIRED", events.get(2).state(), "a returned unit leaves the order EXPIRED");
            }
            for (int i = 1; i < events.size(); i++) {
                assertFalse(Instant.parse(events.get(i).occurredAt()).isBefore(Instant.parse(events.get(i - 1).occurredAt())),
                        "an order's changes in time order: " + events);
            }
        }
        // The relay deletes a batch once acknowledged, which may be a moment after a consumer read it.
        Await.until(Shoppers.CONFIRMATION, () -> outbox(paying) + outbox(lapsing) == 0,
                "every event published to be deleted from the outbox");
    }

    @Test
    void changesMadeWhileTheRelayingWriterIsKilledArePublishedInOrderWhenItIsBack() {
        long paying = shop.sale(3, 900);
        long lapsing = shop.sale(1, 2);
        long payer = Shoppers.newUser();
        String paid = shop.bought(paying, payer);
        long lapser = Shoppers.newUser();
        String lapsed = shop.bought(lapsing, lapser);
        topic.awaitEvents(Map.of(paid, List.of(CONFIRMED), lapsed, List.of(CONFIRMED)), EVENTS);

        long late = Shoppers.newUser();
        String queued;
        shop.stack.kill9("writer");
        try {
            // With the relay dead, every change is committed and none published: the outbox holds them. (A CONFIRMED
            // may be there too: read by us, but its delete not committed at the kill; it is published again.)
            assertEquals("PAID", shop.pay(paid, payer, "k").code());
            shop.await(lapsed, lapser, "EXPIRED", Shoppers.CONFIRMATION);
            Await.until(Shoppers.CONFIRMATION, () -> outbox(lapsed, "UNIT_RETURNED") == 1, "UNIT_RETURNED in the outbox");
            assertEquals(1, outbox(lapsed, "EXPIRED"), "EXPIRED in the outbox");
            assertEquals(1, outbox(paid, "PAID"), "PAID in the outbox");
            queued = shop.bought(paying, late);
        } finally {
            shop.stack.seckill(STACK_OP, "up", "writer");
        }

        topic.awaitEvents(Map.of(paid, List.of(CONFIRMED, PAID), lapsed, List.of(CONFIRMED, EXPIRED, UNIT_RETURNED),
                queued, List.of(CONFIRMED)), EVENTS);
        Await.until(Shoppers.CONFIRMATION, () -> outbox(paying) + outbox(lapsing) == 0, "the outbox emptied");
    }

    @Test
    void writerKilledWithSigkillAfterConfirmingOrdersAndBeforePublishingTheirEventsLosesNone() throws Exception {
        int orders = 150;
        long sale = shop.sale(orders, 900);
        List<String> bought = Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> failed = new AtomicReference<>();
        boolean killed = false;
        // The test holds the relay lock, as a second relay would: the stack's relay stands by, so the writer's rows
        // and their CONFIRMED events are committed and none is published when the kill comes.
        try (Connection lock = shop.stack.db()) {
            lock.setAutoCommit(false);
            try (Statement st = lock.createStatement();
                 ResultSet rs = st.executeQuery("SELECT name FROM order_event_relay FOR UPDATE")) {
                assertTrue(rs.next());
            }
            Thread buyers = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < orders; i++) {
                        bought.add(shop.bought(sale, Shoppers.newUser()));
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            try {
                Await.until(EVENTS, () -> outbox(sale) >= 20, "the writer to confirm orders");
                shop.stack.kill9("writer");
                killed = true;
                lock.rollback();
                assertTrue(buyers.join(EVENTS), "the purchases to end");
            } finally {
                if (killed) {
                    shop.stack.seckill(STACK_OP, "up", "writer");
                }
            }
        }
        assertNull(failed.get(), () -> "a purchase failed: " + failed.get());
        assertEquals(orders, bought.size());

        Map<String, List<OrderStateEvent.Type>> expected = new LinkedHashMap<>();
        bought.forEach(o -> expected.put(o, List.of(CONFIRMED)));
        topic.awaitEvents(expected, EVENTS);
        assertEquals(orders, shop.sql("SELECT COUNT(*) FROM seckill_order WHERE sale_id = ?", sale));
        Await.until(Shoppers.CONFIRMATION, () -> outbox(sale) == 0, "the outbox emptied");
    }

    private long outbox(String orderId, String type) {
        try (Connection c = shop.stack.db(); PreparedStatement ps = c.prepareStatement(
                "SELECT COUNT(*) FROM order_event WHERE order_id = ? AND type = ?")) {
            ps.setLong(1, Long.parseLong(orderId));
            ps.setString(2, type);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to query MySQL: " + e.getMessage(), e);
        }
    }

    private long outbox(long saleId) {
        return shop.sql("SELECT COUNT(*) FROM order_event WHERE sale_id = ?", saleId);
    }
}
