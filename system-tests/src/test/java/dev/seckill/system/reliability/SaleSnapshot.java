package dev.seckill.system.reliability;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every sale's orders and units, read directly from MySQL and Redis once the writer has caught up: what a fuzz run
 * must not change. The expiry may run meanwhile (an earlier test's unpaid order lapsing): it turns a CONFIRMED order
 * EXPIRED and gives its unit back to both stocks, and Redis records it in the returned set (the buyer's mark stays),
 * so the snapshot holds what the expiry keeps: the order rows, the paid ones, units in stock + units held by live
 * orders in MySQL; the buyer marks, and Redis' remaining less the returned units (which any new reservation, order,
 * payment or lost unit would change).
 */
record SaleSnapshot(Map<Long, String> bySale) {

    private static final String SALES = "SELECT s.id, COUNT(o.order_id), COALESCE(SUM(o.state = 'PAID'), 0), "
            + "s.stock + COALESCE(SUM(o.state <> 'EXPIRED'), 0) "
            + "FROM sale s LEFT JOIN seckill_order o ON o.sale_id = s.id GROUP BY s.id, s.stock";

    static SaleSnapshot take() {
        Stack stack = Stack.get();
        Map<Long, String> out = new TreeMap<>();
        try (Connection c = stack.db(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SALES)) {
            while (rs.next()) {
                out.put(rs.getLong(1), "orders=" + rs.getLong(2) + " paid=" + rs.getLong(3)
                        + " stock+live=" + rs.getLong(4));
            }
        } catch (SQLException e) {
            throw new AssertionError("failed to read sales: " + e.getMessage(), e);
        }
        awaitWriter(stack, out.keySet().stream().findFirst().orElse(null));
        RedissonClient redis = StackRedis.connect(stack, RedisClients::connect);
        try {
            out.replaceAll((id, db) -> db + " marks=" + redis.getMap(Keys.buyers(id)).size() + " remaining-returned="
                    + (remaining(redis, id) - redis.getSet(Keys.returned(id)).size()));
        } finally {
            redis.shutdown();
        }
        return new SaleSnapshot(out);
    }

    /** Polls a sale's stats until the writer has no order left on the topic (its lag is the topic's, not the sale's). */
    private static void awaitWriter(Stack stack, Long anySale) {
        if (anySale == null) {
            return;
        }
        HttpJson http = new HttpJson();
        Await.until(Duration.ofSeconds(60), () -> http.get(stack.adminUrl() + "/admin/sales/" + anySale + "/stats",
                        "Authorization", HttpJson.bearer(stack.adminToken())).json().path("consumerLag").asLong(-1) == 0,
                "the writer to catch up");
    }

    private static long remaining(RedissonClient redis, long saleId) {
        Object v = redis.getBucket(Keys.stock(saleId)).get();
        return v == null ? -1 : Long.parseLong(v.toString());
    }
}
