package dev.seckill.sale;

/** Remaining units of a sale in Redis before and after a repair (equal when nothing had to change). */
public record StockChange(long before, long after) {

    public boolean changed() {
        return before != after;
    }
}
