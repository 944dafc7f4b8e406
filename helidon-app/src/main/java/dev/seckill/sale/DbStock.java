package dev.seckill.sale;

/** A sale's stock column in the database, and what it should be: stock_total minus the written orders. */
public record DbStock(long actual, long expected) {

    public boolean agrees() {
        return actual == expected;
    }
}
