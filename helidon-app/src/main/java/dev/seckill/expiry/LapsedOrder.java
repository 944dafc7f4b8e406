package dev.seckill.expiry;

/** An order that expired unpaid, whose unit is owed back to the sale's Redis stock. */
public record LapsedOrder(long orderId, long saleId, long userId) {
}
