package dev.seckill.writer.batch;

/** An order row already in the database, as far as deciding about a new event needs it. */
public record StoredOrder(long orderId, long saleId, long userId) {

    public SaleUser saleUser() {
        return new SaleUser(saleId, userId);
    }
}
