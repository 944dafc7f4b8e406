package dev.seckill.order;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The expiry runs by itself on every instance, and each lapsed order expires once and gives its unit back once:
 * with two service instances at work on the same sale, and across a restart of the service, including
 * a unit the database already gave back but Redis was still owed when the service went down.
 */
class ExpiryInstancesIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final Pattern EXPIRED = Pattern.compile("(?m)^seckill_orders_expired_total(?:\\{[^}]*\\})? (\\S+)$");
    /** Long enough that no order lapses on its own while the test buys; the test says when each comes due. */
    private static final int WINDOW_SECONDS = 600;
    private final Shoppers shop = new Shoppers();

    @Test
    void twoInstancesExpireEachOrderOnceAndEveryUnitComesBackOnce() throws SQLException {
        int stock = 40;
        long sale = shop.sale(stock, WINDOW_SECONDS);
        String since = dbNow();
        double firstBefore = expired(shop.http.get(shop.stack.adminUrl() + "/observe/metrics").body());
        // Each instance's pass expires every order due (a transaction per batch); the first passes once a second, the
        // second every 700 ms, one order a transaction. The orders come due one every 200 ms over 8 s (below). As the
        // two timers drift through each other's phases (every 7 s), each instance has passes that come 500 ms or
        // more after the other's last one, with orders due: both take some, whatever the timers' phases.
        try (SecondService second = SecondService.start(Map.of("SECKILL_EXPIRY_BATCH", "1",
                "SECKILL_EXPIRY_INTERVAL_MS", "700"))) {
            Shoppers other = new Shoppers(second.url());
            Map<String, Long> owners = new LinkedHashMap<>();
            for (int i = 0; i < stock; i++) {
                long user = Shoppers.newUser();
                owners.put((i % 2 == 0 ? shop : other).bought(sale, user), user);
            }
            owners.keySet().forEach(this::awaitWritten);
            comeDueOneEvery200Ms(owners.keySet());
            owners.forEach((order, user) -> shop.await(order, user, "EXPIRED", Shoppers.CONFIRMATION));

            JsonNode stats = shop.consistent(sale);
            assertEquals(stock, stats.path("dbExpired").asLong());
            assertEquals(stock, stats.path("redisReturned").asLong());
            assertEquals(stock, stats.path("redisRemaining").asLong(), "no unit came back twice: " + stats);
            assertEquals(stock, stats.path("dbStock").asLong(), stats.toString());
            shop.assertRowsAreTheNamedOrders(sale, owners);
            // Who expired what: each instance's own counter of orders it expired (seckill.orders.expired). The
            // counters count every sale, so orders of other sales that expired meanwhile (read from MySQL after
            // the counters, a superset) are held against them.
            double byFirst = expired(shop.http.get(shop.stack.adminUrl() + "/observe/metrics").body()) - firstBefore;
            double bySecond = expired(second.metrics());
            long foreign = shop.sql("SELECT COUNT(*) FROM seckill_order WHERE sale_id <> ? AND state = 'EXPIRED' "
                    + "AND expired_at >= '" + since + "'", sale);
            System.out.println("two instances: the first expired " + byFirst + ", the second " + bySecond
                    + " of " + stock + " orders (" + foreign + " orders of other sales expired meanwhile)");
            assertTrue(byFirst > foreign && bySecond > foreign, "the race happened: both instances expired orders "
                    + "of the sale (first " + byFirst + ", second " + bySecond + ", other sales' " + foreign + ")");
            assertTrue(byFirst + bySecond >= stock && byFirst + bySecond <= stock + foreign,
                    "each order expired by one instance, once: " + byFirst + " + " + bySecond);
            long again = Shoppers.newUser();
            String resold = other.bought(sale, again);
            shop.await(resold, again, "CONFIRMED", Shoppers.CONFIRMATION);
        }
    }

    @Test
    void theExpiryResumesAfterARestartAndPaysWhatRedisWasOwed() throws Exception {
        long sale = shop.sale(3, 1);
        long lapsing = Shoppers.newUser();
        long owedTo = Shoppers.newUser();
        String lapsed = shop.bought(sale, lapsing);
        String owed = shop.bought(sale, owedTo);
        shop.stack.seckill(STACK_OP, "down", "service");
        try {
            awaitWritten(lapsed);
            awaitWritten(owed);
            // What a service killed between the expiry's commit and release.lua leaves: the order expired and its
            // unit back in the DB stock, Redis still owed (one unit_return row).
            try (Connection c = shop.stack.db()) {
                update(c, "UPDATE seckill_order SET state = 'EXPIRED', expired_at = NOW(3) WHERE order_id = ?", owed);
                update(c, "UPDATE sale SET stock = stock + 1, version = version + 1 WHERE id = ?", Long.toString(sale));
                update(c, "INSERT INTO unit_return (order_id, sale_id, user_id) SELECT order_id, sale_id, user_id "
                        + "FROM seckill_order WHERE order_id = ?", owed);
            }
        } finally {
            shop.stack.seckill(STACK_OP, "up", "service");
        }
        shop.await(lapsed, lapsing, "EXPIRED", Shoppers.CONFIRMATION);
        JsonNode stats = shop.consistent(sale);
        assertEquals(3, stats.path("redisRemaining").asLong(), "both units back in Redis, once each: " + stats);
        assertEquals(2, stats.path("redisReturned").asLong());
        assertEquals(3, stats.path("dbStock").asLong());
        assertEquals(0, stats.path("unitsOwed").asLong());
    }

    /** The database's clock now, as its own text (expired_at is written by that clock; no time zone between). */
    private String dbNow() throws SQLException {
        try (Connection c = shop.stack.db(); PreparedStatement ps = c.prepareStatement("SELECT CAST(NOW(3) AS CHAR)");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * Moves the orders' written_at (their payBy is written_at + the window) so that they come due one every 200 ms
     * from a second from now, in the database's clock.
     */
    private void comeDueOneEvery200Ms(Iterable<String> orders) throws SQLException {
        try (Connection c = shop.stack.db(); PreparedStatement ps = c.prepareStatement("UPDATE seckill_order SET "
                + "written_at = NOW(3) - INTERVAL ? SECOND + INTERVAL ? MICROSECOND WHERE order_id = ?")) {
            long at = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            for (String order : orders) {
                ps.setInt(1, WINDOW_SECONDS);
                // Each due 200 ms after the one before, however long the updates take (the database's NOW moves on).
                ps.setLong(2, (at - System.nanoTime()) / 1000);
                ps.setLong(3, Long.parseLong(order));
                assertEquals(1, ps.executeUpdate(), "order " + order);
                at += Duration.ofMillis(200).toNanos();
            }
        }
    }

    /** Waits until the writer has written the order (read from MySQL: the service may be down). */
    private void awaitWritten(String orderId) {
        dev.seckill.testkit.Await.until(Shoppers.CONFIRMATION, () -> shop.sql(
                "SELECT COUNT(*) FROM seckill_order WHERE order_id = ?", Long.parseLong(orderId)) == 1,
                "order " + orderId + " to be written");
    }

    private static void update(Connection c, String sql, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, Long.parseLong(id));
            assertEquals(1, ps.executeUpdate(), sql);
        }
    }

    private static double expired(String metrics) {
        Matcher m = EXPIRED.matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
