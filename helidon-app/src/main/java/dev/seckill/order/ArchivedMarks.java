package dev.seckill.order;

import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A buyer's order id in a sale: the Redis buyer mark while the sale is in Redis, the database's row once the sale is
 * archived (its buyers hash expired; docs/redis.md). The database is asked only when there is no mark and the
 * sale's tombstone says it was archived, so "my order" of a live sale stays one HGET for a non-buyer.
 */
public final class ArchivedMarks implements QueuedOrders.BuyerMarks {

    /** A buyer's order id as the database has it (one unique-key read of (sale_id, user_id)). */
    @FunctionalInterface
    public interface WrittenMarks {
        Optional<Long> orderOf(long saleId, long userId);
    }

    private final QueuedOrders.BuyerMarks redis;
    private final LongFunction<Long> archivedAt;
    private final WrittenMarks written;

    /** @param archivedAt when a sale was archived, or null (SaleStock#archivedAt) */
    public ArchivedMarks(QueuedOrders.BuyerMarks redis, LongFunction<Long> archivedAt, WrittenMarks written) {
        this.redis = redis;
        this.archivedAt = archivedAt;
        this.written = written;
    }

    @Override
    public Optional<String> orderOf(long saleId, long userId) {
        Optional<String> mark = redis.orderOf(saleId, userId);
        if (mark.isPresent() || archivedAt.apply(saleId) == null) {
            return mark;
        }
        return written.orderOf(saleId, userId).map(String::valueOf);
    }
}
