package dev.seckill.writer.batch;

/**
 * The DB stock guard refused part of a batch: {@code requested} new orders of the sale met only
 * {@code stockLeft} units; the ones past the stock were not written.
 */
public record GuardBreach(long saleId, int requested, int stockLeft) {
}
