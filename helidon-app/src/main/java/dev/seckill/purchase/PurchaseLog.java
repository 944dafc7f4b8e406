package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's line of an accepted purchase: the one step of `bin/seckill trace` between the edge's access log and
 * the writer's line of the row, so it carries the ids both name (request id, order id) and where Kafka put the event.
 * At INFO, on by default: accepted purchases are bounded by the stock, refusals are never logged here, and the line
 * is only queued by the request thread (logback.xml's async appender), so a flood costs nothing here.
 */
final class PurchaseLog {

    private static final Logger LOG = LoggerFactory.getLogger(PurchaseLog.class);

    private PurchaseLog() {
    }

    /** @param resend the order is one whose earlier send failed, sent again (same id) */
    static void queued(String requestId, OrderEvent event, OrderPublisher.Delivery delivery, boolean resend) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        LOG.atInfo()
                .addKeyValue("requestId", requestId)
                .addKeyValue("orderId", event.orderId())
                .addKeyValue("saleId", event.saleId())
                .addKeyValue("userId", event.userId())
                .addKeyValue("partition", delivery.partition())
                .addKeyValue("offset", delivery.offset())
                .log(resend ? "purchase queued (order sent again)" : "purchase queued");
    }
}
