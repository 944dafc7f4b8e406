package dev.seckill.writer.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Takes n units off a sale's DB stock, guarded twice: {@code stock >= n} (never below zero) and the version read
 * earlier (optimistic lock: a concurrent change of the row is noticed, not overwritten). On a version conflict it
 * re-reads the row and tries again, a bounded number of times.
 */
final class StockGuard {

    private static final String DECREMENT =
            "UPDATE sale SET stock = stock - ?, version = version + 1 WHERE id = ? AND version = ? AND stock >= ?";
    // FOR UPDATE reads the latest committed row whatever the isolation level, and holds it until commit, so the
    // next attempt cannot lose the race again.
    private static final String CURRENT = "SELECT stock, version FROM sale WHERE id = ? FOR UPDATE";

    private final int attempts;

    StockGuard(int attempts) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1");
        }
        this.attempts = attempts;
    }

    /**
     * @param version the version the caller read at the start of the transaction
     * @return applied, or refused with the stock that is left (which is below n)
     * @throws ConcurrentWriteException when the row kept changing, or vanished
     */
    Outcome decrement(Connection c, long saleId, int n, long version) throws SQLException {
        long expected = version;
        int conflicts = 0;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (update(c, saleId, n, expected)) {
                return new Outcome(true, -1, expected + 1, conflicts);
            }
            try (PreparedStatement ps = c.prepareStatement(CURRENT)) {
                ps.setLong(1, saleId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new ConcurrentWriteException("sale " + saleId + " vanished during the batch");
                    }
                    int stock = rs.getInt(1);
                    long current = rs.getLong(2);
                    if (stock < n) {
                        return new Outcome(false, stock, current, conflicts);
                    }
                    conflicts++;
                    expected = current;
                }
            }
        }
        throw new ConcurrentWriteException("sale " + saleId + ": stock row changed under " + attempts + " attempts");
    }

    private static boolean update(Connection c, long saleId, int n, long version) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DECREMENT)) {
            ps.setInt(1, n);
            ps.setLong(2, saleId);
            ps.setLong(3, version);
            ps.setInt(4, n);
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * @param applied   the stock was decremented
     * @param stockLeft when refused: the units left, fewer than requested
     * @param version   the row's version after this call (for a following attempt in the same transaction)
     * @param conflicts version conflicts met and retried
     */
    record Outcome(boolean applied, int stockLeft, long version, int conflicts) {
    }
}
