package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The relay's SQL against {@code order_event} and {@code order_event_relay} (sql/V5): one statement per call. The
 * pool's connections are READ COMMITTED, so {@link Batch#pending} sees every committed event and locks none of them:
 * the writers and the service go on inserting while a batch is out at Kafka.
 */
public final class JdbcOutbox implements Outbox {

    // SKIP LOCKED: a standby relay learns at once that another one publishes, instead of waiting for its batch.
    private static final String LOCK = "SELECT name FROM order_event_relay WHERE name = 'order-events' "
            + "FOR UPDATE SKIP LOCKED";
    private static final String PENDING = "SELECT seq, order_id, sale_id, user_id, type, occurred_at, request_id "
            + "FROM order_event ORDER BY seq LIMIT ?";

    private final DataSource db;

    public JdbcOutbox(DataSource db) {
        this.db = db;
    }

    @Override
    public Batch begin() throws SQLException {
        Connection c = db.getConnection();
        try {
            c.setAutoCommit(false);
            return new JdbcBatch(c);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private record JdbcBatch(Connection c) implements Batch {

        @Override
        public boolean lock() throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(LOCK); ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }

        @Override
        public List<PendingEvent> pending(int limit) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement(PENDING)) {
                ps.setInt(1, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    List<PendingEvent> out = new ArrayList<>();
                    while (rs.next()) {
                        // The session's zone is UTC (DataSources), so the column's wall-clock time is UTC.
                        LocalDateTime at = rs.getObject(6, LocalDateTime.class);
                        out.add(new PendingEvent(rs.getLong(1), OrderStateEvent.of(
                                OrderStateEvent.Type.valueOf(rs.getString(5)), rs.getLong(2), rs.getLong(3),
                                rs.getLong(4), at.toInstant(ZoneOffset.UTC), rs.getString(7))));
                    }
                    return out;
                }
            }
        }

        @Override
        public void delete(List<PendingEvent> sent) throws SQLException {
            if (sent.isEmpty()) {
                return;
            }
            String sql = "DELETE FROM order_event WHERE seq IN (?" + ",?".repeat(sent.size() - 1) + ")";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < sent.size(); i++) {
                    ps.setLong(i + 1, sent.get(i).seq());
                }
                int deleted = ps.executeUpdate();
                if (deleted != sent.size()) {
                    // Only the lock holder deletes: fewer rows means the lock did not hold. Roll back, publish again.
                    throw new SQLException("deleted " + deleted + " of " + sent.size() + " published events");
                }
            }
        }

        @Override
        public void commit() throws SQLException {
            c.commit();
        }

        @Override
        public void close() throws SQLException {
            try {
                c.rollback();
            } finally {
                c.close();
            }
        }
    }
}
