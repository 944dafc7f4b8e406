package dev.seckill.writer.store;

import java.sql.SQLTransientException;

/**
 * Another transaction changed rows this batch relies on between our read and our write (a second writer still
 * finishing a batch of a partition that moved, or an operator editing a sale). The batch is rolled back and
 * retried; the retry reads the new state.
 */
public final class ConcurrentWriteException extends SQLTransientException {

    public ConcurrentWriteException(String message) {
        super(message);
    }
}
