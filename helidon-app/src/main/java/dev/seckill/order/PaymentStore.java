package dev.seckill.order;

import java.time.Instant;
import java.util.Optional;

/** Where payments are decided and kept (the database; a fake in unit tests). */
public interface PaymentStore {

    /**
     * Marks the order PAID and stores its payment, in one transaction, if and only if it is still CONFIRMED and the
     * database's clock is not past {@code payBy}: the database decides a pay racing the expiry (or another pay).
     *
     * @return true when this call paid the order; false when it was no longer payable (nothing written)
     */
    boolean recordPaid(long orderId, long userId, Instant payBy, PaymentRecord payment);

    /** The payment stored with an order, if it was paid. */
    Optional<PaymentRecord> payment(long orderId);
}
