package dev.seckill.writer.store;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;

import java.sql.SQLException;
import java.util.Collections;
import java.util.List;

/** Writes one batch of order events in one transaction; the consumer sees only this. */
public interface OrderStore {

    /**
     * Writes the batch or nothing: when this returns, the transaction is committed and the result says exactly
     * which events became rows; when it throws, nothing of the batch was committed. Each row written gets its
     * CONFIRMED order event in the outbox in the same transaction.
     *
     * @param requestIds the purchase's request id of each event, index for index (null where the record had none)
     * @throws SQLException when the database failed; every such failure is worth a retry of the same batch
     */
    BatchResult write(List<OrderEvent> events, List<String> requestIds) throws SQLException;

    /** {@link #write(List, List)} of events without request ids. */
    default BatchResult write(List<OrderEvent> events) throws SQLException {
        return write(events, Collections.nCopies(events.size(), null));
    }
}
