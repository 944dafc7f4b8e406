package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;

import java.time.Clock;

/**
 * One purchase attempt, without HTTP: reserve a unit, publish the order to Kafka, and give the unit back if the
 * publish fails, so that a 503 never keeps stock and a 202 always has its event in Kafka.
 */
public final class Purchaser {

    private static final System.Logger LOG = System.getLogger(Purchaser.class.getName());

    private final StockReserver reserver;
    private final OrderPublisher publisher;
    private final OrderIds ids;
    private final SoldOutFlags soldOut;
    private final Reopener reopener;
    private final PurchaseMetrics metrics;
    private final Clock clock;

    public Purchaser(StockReserver reserver, OrderPublisher publisher, OrderIds ids, SoldOutFlags soldOut,
                     Reopener reopener, PurchaseMetrics metrics, Clock clock) {
        this.reserver = reserver;
        this.publisher = publisher;
        this.ids = ids;
        this.soldOut = soldOut;
        this.reopener = reopener;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * @return the outcome as the reserver decided it; {@code Queued} only once the order is in Kafka
     * @throws DependencyUnavailable when Redis or Kafka fails, or the reservation did not reach its replicas (any
     *         unit taken has been given back, or reconcile will)
     */
    public PurchaseOutcome attempt(Sale sale, User user) {
        if (soldOut.isSoldOut(sale.id())) {
            return new PurchaseOutcome.SoldOut(true);
        }
        long orderId = ids.next();
        long now = clock.millis();
        PurchaseOutcome outcome;
        try {
            outcome = metrics.script().record(() -> reserver.reserve(sale, user.id(), orderId, now));
        } catch (ReservationNotReplicated e) {
            metrics.notReplicated();
            giveBack(sale.id(), user.id(), orderId);
            throw e;
        }
        if (outcome instanceof PurchaseOutcome.Queued) {
            publish(OrderEvent.of(orderId, sale.id(), user.id(), sale.priceCents(), now));
        } else if (outcome instanceof PurchaseOutcome.SoldOut) {
            soldOut.markSoldOut(sale.id());
        }
        return outcome;
    }

    private void publish(OrderEvent event) {
        try {
            metrics.kafka().record(() -> publisher.publish(event));
        } catch (DependencyUnavailable e) {
            giveBack(event.saleId(), event.userId(), event.orderIdValue());
            throw e;
        }
    }

    /**
     * Compensates a reservation that must not become an order (not in Kafka, or not on the replicas); a failure here
     * is left to reconcile.
     */
    private void giveBack(long saleId, long userId, long orderId) {
        try {
            reopener.unitReturned(saleId, reserver.compensate(saleId, userId, orderId));
        } catch (RuntimeException e) {
            metrics.compensationFailed();
            LOG.log(System.Logger.Level.ERROR, "failed to give back the unit of order " + orderId + " (sale " + saleId
                    + ", user " + userId + "); reconcile will: " + e.getMessage(), e);
        }
    }
}
