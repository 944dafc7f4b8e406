package dev.seckill.order;

import java.util.Optional;

/** Where payments are decided and kept (the database; a fake in unit tests). */
public interface PaymentStore {

    /**
     * Marks the order PAID and stores its payment, in one transaction, if and only if it is still CONFIRMED and the
     * database's clock is not past {@code payBy}: the database decides a pay racing the expiry (or another pay). The
     * order's PAID event goes into the outbox in the same transaction.
     *
     * @param order     the order as read before the charge (its id, sale, owner and payBy)
     * @param requestId the pay request's X-Request-Id, carried by the PAID event
     * @return true when this call paid the order; false when it was no longer payable (nothing written)
     */
    boolean recordPaid(Order order, PaymentRecord payment, String requestId);

    /** The payment stored with an order, if it was paid. */
    Optional<PaymentRecord> payment(long orderId);
}
