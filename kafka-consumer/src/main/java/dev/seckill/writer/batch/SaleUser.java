package dev.seckill.writer.batch;

/** The pair the database keeps unique: at most one order per user in a sale. */
public record SaleUser(long saleId, long userId) {
}
