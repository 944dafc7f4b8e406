package dev.seckill.writer.relay;

import java.sql.SQLException;
import java.util.List;

/** The outbox table as the relay sees it, one transaction per batch ({@link JdbcOutbox}; a fake in unit tests). */
public interface Outbox {

    /** Starts a transaction; closing it without {@link Batch#commit()} rolls it back. */
    Batch begin() throws SQLException;

    /** One relay batch's transaction. */
    interface Batch extends AutoCloseable {

        /**
         * Takes the relay lock for this transaction, without waiting.
         *
         * @return false when another relay holds it: that one publishes, this one stands by
         */
        boolean lock() throws SQLException;

        /** The oldest events not yet published, in outbox order, at most {@code limit}. */
        List<PendingEvent> pending(int limit) throws SQLException;

        /** Removes published events (removing a row is what marks it sent). */
        void delete(List<PendingEvent> sent) throws SQLException;

        void commit() throws SQLException;

        @Override
        void close() throws SQLException;
    }
}
