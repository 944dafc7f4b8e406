package dev.seckill.writer.relay;

import dev.seckill.event.OrderStateEvent;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox table in memory, with its transaction: deletes are applied at commit only, the lock can be held by
 * "another relay", and the database can be down.
 */
final class FakeOutbox implements Outbox {

    final List<PendingEvent> rows = new ArrayList<>();
    volatile boolean lockedElsewhere;
    volatile boolean down;
    int commits;
    private long seq;

    PendingEvent add(OrderStateEvent.Type type, long orderId) {
        PendingEvent p = new PendingEvent(++seq, OrderStateEvent.of(type, orderId, 7, orderId + 1000,
                Instant.parse("2026-01-01T00:00:00Z").plusMillis(seq), "req-" + seq));
        rows.add(p);
        return p;
    }

    @Override
    public Batch begin() throws SQLException {
        if (down) {
            throw new SQLTransientConnectionException("connection refused (the DB is down)");
        }
        return new Batch() {
            private final List<PendingEvent> deleted = new ArrayList<>();

            @Override
            public boolean lock() {
                return !lockedElsewhere;
            }

            @Override
            public List<PendingEvent> pending(int limit) {
                return List.copyOf(rows.subList(0, Math.min(limit, rows.size())));
            }

            @Override
            public void delete(List<PendingEvent> sent) {
                deleted.addAll(sent);
            }

            @Override
            public void commit() {
                rows.removeAll(deleted);
                commits++;
            }

            @Override
            public void close() {
                deleted.clear();
            }
        };
    }
}
