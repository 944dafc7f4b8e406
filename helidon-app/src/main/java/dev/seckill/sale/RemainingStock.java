package dev.seckill.sale;

/** Where a sale's remaining units are read from (Redis through {@link SaleStock}; a fake in unit tests). */
@FunctionalInterface
public interface RemainingStock {

    /** Remaining units, or null when the sale has no stock key (not preheated, or Redis lost it). */
    Long remaining(long saleId);
}
