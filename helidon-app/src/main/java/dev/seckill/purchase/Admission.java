package dev.seckill.purchase;

import dev.seckill.sale.Sale;

/**
 * Whether a buyer may purchase a sale now, decided before Redis: a waiting-room sale admits only the holders of an
 * admitted ticket of their own (dev.seckill.line.LineAdmission); every other sale admits everyone.
 */
@FunctionalInterface
public interface Admission {

    Admission EVERYONE = (sale, userId, ticket) -> null;

    /**
     * @param ticket the request's {@code X-Line-Ticket}, or null
     * @return null to go on with the purchase, or the outcome that answers it instead
     */
    PurchaseOutcome refusal(Sale sale, long userId, String ticket);
}
