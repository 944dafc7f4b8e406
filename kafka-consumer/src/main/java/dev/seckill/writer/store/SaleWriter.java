package dev.seckill.writer.store;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.GuardBreach;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;

/**
 * Writes one sale's new orders of a batch inside the batch transaction: insert them, then take exactly the number
 * inserted off the stock through the guard. When the guard refuses (the DB stock cannot cover them: Redis and DB
 * disagree), this sale's rows are rolled back to a savepoint and the earliest orders the stock still covers are
 * written instead; the rest are reported as refused. Other sales of the batch are not affected.
 */
final class SaleWriter {

    private final StockGuard guard;

    SaleWriter(StockGuard guard) {
        this.guard = guard;
    }

    /**
     * @param fresh   the sale's new orders in batch order, none of them in the DB when the batch read it
     * @param version the sale's version read at the start of the transaction
     */
    Outcome write(Connection c, long saleId, long version, List<OrderEvent> fresh) throws SQLException {
        List<OrderEvent> batch = fresh;
        long expected = version;
        int conflicts = 0;
        GuardBreach breach = null;
        while (!batch.isEmpty()) {
            Savepoint beforeSale = c.setSavepoint();
            int inserted = OrderTable.insertIgnore(c, batch);
            if (inserted != batch.size()) {
                // Rows the plan did not know about (a user's other order, or another writer's insert since we
                // looked): we cannot tell which rows are ours, so the whole transaction is planned again.
                throw new ConcurrentWriteException("sale " + saleId + ": " + batch.size()
                        + " new orders but " + inserted + " inserted; rows exist that the plan did not see");
            }
            StockGuard.Outcome taken = guard.decrement(c, saleId, inserted, expected);
            conflicts += taken.conflicts();
            if (taken.applied()) {
                break;
            }
            c.rollback(beforeSale);
            if (breach == null) {
                breach = new GuardBreach(saleId, fresh.size(), taken.stockLeft());
            }
            expected = taken.version();
            // The guard refused n, so stockLeft < n and this loop ends.
            batch = batch.subList(0, taken.stockLeft());
        }
        return new Outcome(batch.size(), conflicts, breach);
    }

    /**
     * @param written   how many of the fresh orders (the first ones) are now rows; the others were refused
     * @param conflicts version conflicts retried
     * @param breach    the guard's refusal, or null when everything was written
     */
    record Outcome(int written, int conflicts, GuardBreach breach) {
    }
}
