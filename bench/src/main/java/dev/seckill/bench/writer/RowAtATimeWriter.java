package dev.seckill.bench.writer;

import dev.seckill.event.OrderEvent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The design the batch writer replaces, for the benchmark only: one order per transaction, i.e. one insert, one
 * guarded stock update and one commit per order, each a round trip. It keeps one connection and its prepared
 * statements for the whole run, its best case, so the measured ratio is conservative.
 */
final class RowAtATimeWriter implements AutoCloseable {

    private final Connection c;
    private final PreparedStatement insert;
    private final PreparedStatement take;

    RowAtATimeWriter(Connection c) throws SQLException {
        this.c = c;
        c.setAutoCommit(false);
        insert = c.prepareStatement("INSERT IGNORE INTO seckill_order (order_id, sale_id, user_id, price_cents,"
                + " created_at) VALUES (?, ?, ?, ?, ?)");
        take = c.prepareStatement("UPDATE sale SET stock = stock - 1, version = version + 1 WHERE id = ? AND stock >= 1");
    }

    /** Writes one order; false when it was a duplicate or the stock guard refused it. */
    boolean write(OrderEvent e) throws SQLException {
        insert.setLong(1, e.orderIdValue());
        insert.setLong(2, e.saleId());
        insert.setLong(3, e.userId());
        insert.setLong(4, e.priceCents());
        insert.setObject(5, LocalDateTime.ofInstant(Instant.ofEpochMilli(e.createdAt()), ZoneOffset.UTC));
        if (insert.executeUpdate() == 0) {
            c.rollback();
            return false;
        }
        take.setLong(1, e.saleId());
        if (take.executeUpdate() == 0) {
            c.rollback();
            return false;
        }
        c.commit();
        return true;
    }

    @Override
    public void close() throws SQLException {
        insert.close();
        take.close();
        c.close();
    }
}
