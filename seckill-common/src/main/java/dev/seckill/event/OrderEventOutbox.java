package dev.seckill.event;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Writes order events into the outbox table {@code order_event} (sql/V5): the one place its insert is made, for the
 * writer (CONFIRMED) and the service (PAID, EXPIRED, UNIT_RETURNED). Callers run it on the connection of the
 * transaction that makes the change, before it commits, so an event exists if and only if its change does; the
 * writer's relay publishes the rows.
 */
public final class OrderEventOutbox {

    /** One change to record. {@code requestId}: the request that made it, or null (kept only if it is a safe id). */
    public record Change(OrderStateEvent.Type type, long orderId, long saleId, long userId, String requestId) {
    }

    private OrderEventOutbox() {
    }

    /**
     * One multi-row insert of every change, stamped with the database's clock. A change recorded twice (the same
     * order and type) violates the table's unique key and fails the caller's transaction: each happens once.
     */
    public static void append(Connection c, List<Change> changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder(
                "INSERT INTO order_event (order_id, sale_id, user_id, type, state, occurred_at, request_id) VALUES ");
        for (int i = 0; i < changes.size(); i++) {
            sql.append(i == 0 ? "(?,?,?,?,?,NOW(3),?)" : ",(?,?,?,?,?,NOW(3),?)");
        }
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            int p = 1;
            for (Change ch : changes) {
                ps.setLong(p++, ch.orderId());
                ps.setLong(p++, ch.saleId());
                ps.setLong(p++, ch.userId());
                ps.setString(p++, ch.type().name());
                ps.setString(p++, ch.type().state());
                ps.setString(p++, OrderStateEvent.requestId(ch.requestId()));
            }
            ps.executeUpdate();
        }
    }
}
