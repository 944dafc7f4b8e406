package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.http.Unavailable;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;
import org.redisson.client.RedisException;

import java.time.Clock;

import static dev.seckill.purchase.PurchaseMetrics.Answer;

/**
 * One purchase attempt, without HTTP: reserve a unit in Redis, publish the order to Kafka, and give the unit back
 * if the publish fails, so that a 503 never keeps stock and a 202 always has its event in Kafka.
 */
public final class Purchaser {

    private static final System.Logger LOG = System.getLogger(Purchaser.class.getName());

    private final StockReserver reserver;
    private final OrderPublisher publisher;
    private final OrderIds ids;
    private final SoldOutFlags soldOut;
    private final EdgeFlags edge;
    private final PurchaseMetrics metrics;
    private final Clock clock;

    public Purchaser(StockReserver reserver, OrderPublisher publisher, OrderIds ids, SoldOutFlags soldOut,
                     EdgeFlags edge, PurchaseMetrics metrics, Clock clock) {
        this.reserver = reserver;
        this.publisher = publisher;
        this.ids = ids;
        this.soldOut = soldOut;
        this.edge = edge;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * @throws Unavailable when Redis or Kafka fails (any unit taken has been given back, or reconcile will)
     */
    public PurchaseResult attempt(Sale sale, User user) {
        if (soldOut.isSoldOut(sale.id())) {
            return PurchaseResult.of(Answer.SOLD_OUT_LOCAL);
        }
        long orderId = ids.next();
        long now = clock.millis();
        Reservation r;
        try {
            r = metrics.script().recordCallable(() -> reserver.reserve(sale.id(), user.id(), orderId, now));
        } catch (RedisException e) {
            throw new Unavailable("Redis is unavailable", e);
        } catch (Exception e) {
            throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        }
        return switch (r.outcome()) {
            case QUEUED -> publish(sale, user, orderId, now);
            case ALREADY_PURCHASED -> new PurchaseResult(Answer.ALREADY_PURCHASED, r.existingOrderId(), 0);
            case SOLD_OUT -> {
                soldOut.markSoldOut(sale.id());
                yield PurchaseResult.of(Answer.SOLD_OUT);
            }
            case NOT_STARTED -> new PurchaseResult(Answer.NOT_STARTED, null, r.data());
            case SALE_ENDED -> PurchaseResult.of(Answer.SALE_ENDED);
            case RATE_LIMITED -> new PurchaseResult(Answer.RATE_LIMITED, null, r.data());
            // Keys gone (Redis lost its data, or the sale is being rebuilt): never SOLD_OUT, never fresh stock.
            case MISSING -> throw new Unavailable("sale " + sale.id() + " is being restored; try again shortly");
        };
    }

    private PurchaseResult publish(Sale sale, User user, long orderId, long now) {
        OrderEvent event = OrderEvent.of(orderId, sale.id(), user.id(), sale.priceCents(), now);
        try {
            metrics.kafka().record(() -> publisher.publish(event));
            return new PurchaseResult(Answer.QUEUED, event.orderId(), 0);
        } catch (Unavailable e) {
            giveBack(sale.id(), user.id(), orderId);
            throw e;
        }
    }

    /** Compensates a reservation whose order never reached Kafka; a failure here is left to reconcile. */
    private void giveBack(long saleId, long userId, long orderId) {
        try {
            long remaining = reserver.compensate(saleId, userId, orderId);
            if (remaining == 1) {
                // Stock came back from zero: let buyers in again, here and at the edge.
                soldOut.clear(saleId);
                edge.clearSoldOut(saleId);
            }
        } catch (RuntimeException e) {
            metrics.compensationFailed();
            LOG.log(System.Logger.Level.ERROR, "failed to give back the unit of order " + orderId + " (sale " + saleId
                    + ", user " + userId + "); reconcile will: " + e.getMessage(), e);
        }
    }
}
