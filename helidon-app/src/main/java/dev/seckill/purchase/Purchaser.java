package dev.seckill.purchase;

import dev.seckill.event.OrderEvent;
import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.failure.OrderKept;
import dev.seckill.http.Deadline;
import dev.seckill.identity.User;
import dev.seckill.sale.Sale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * One purchase attempt, without HTTP: reserve a unit, publish the order to Kafka, and answer 202 only once Kafka has
 * it. A failed send keeps the unit: Kafka cannot say whether a send that failed was written, so giving the unit back
 * could sell it twice and leave the first buyer's order to land on a unit sold again. The reservation is recorded as
 * unsent instead; the buyer's retry sends the same order again (same id) and is answered 202 with it, and reconcile
 * gives the unit back only once every send of it is settled and the writer has caught up (docs/failures.md).
 */
public final class Purchaser {

    private static final Logger LOG = LoggerFactory.getLogger(Purchaser.class);
    /**
     * An order younger than this, named by a buyer's second click while the first is still in flight, is left to
     * that first purchase to send (or keep, or note for the resender): sending it twice would cost Kafka for nothing.
     * A retry after a 503 comes later (its Retry-After is a second at least), and so does one after a service died
     * mid-purchase.
     */
    static final Duration OWN_SEND = Duration.ofSeconds(1);
    /** Left of a deadline for recording an unacknowledged send (one unsent.lua call) and answering. */
    static final Duration RECORD_TIME = Duration.ofMillis(250);

    private final StockReserver reserver;
    private final UnitLedger ledger;
    private final OrderPublisher publisher;
    private final OrderIds ids;
    private final SoldOutFlags soldOut;
    private final Reopener reopener;
    private final PurchaseMetrics metrics;
    private final UnsentSales unsentSales;
    private final Clock clock;

    /**
     * @param ledger      records a failed send, forgets it after a resend, gives back an unreplicated reservation
     * @param unsentSales where a failed send or a held unit is noted for the {@link Resender}
     */
    public Purchaser(StockReserver reserver, UnitLedger ledger, OrderPublisher publisher, OrderIds ids,
                     SoldOutFlags soldOut, Reopener reopener, PurchaseMetrics metrics, UnsentSales unsentSales,
                     Clock clock) {
        this.reserver = reserver;
        this.ledger = ledger;
        this.publisher = publisher;
        this.ids = ids;
        this.soldOut = soldOut;
        this.reopener = reopener;
        this.metrics = metrics;
        this.unsentSales = unsentSales;
        this.clock = clock;
    }

    /**
     * @param requestId the purchase's X-Request-Id: it goes into the Kafka record's headers and the accepted line
     * @return the outcome as the reserver decided it; {@code Queued} only once the order is in Kafka
     * @throws DependencyUnavailable when Redis or Kafka fails, or the reservation did not reach its replicas (a unit
     *         never sent has been given back or, when that failed too, is noted for the resender); {@link OrderKept}, naming the order, when the unit
     *         was taken and its send failed (it stays held and is resent)
     */
    public PurchaseOutcome attempt(Sale sale, User user, String requestId) {
        return attempt(sale, user, requestId, Deadline.NONE);
    }

    /**
     * The same, answering by {@code deadline}: the wait for Kafka's acknowledgement ends {@link #RECORD_TIME} before
     * it, so that a send still unacknowledged then is recorded like a failed one and answered 503 naming its kept
     * order (its send goes on; the resender sends it again and the writer keeps one).
     */
    public PurchaseOutcome attempt(Sale sale, User user, String requestId, Deadline deadline) {
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
            // Nothing was sent for it. A RESEND's earlier order is not this id, so its unit is not touched here.
            giveBack(sale.id(), user.id(), orderId);
            throw e;
        } catch (ReservationUnknown e) {
            // Perhaps reserved: a retry would name it, so it is recorded and sent once Redis answers.
            unsentSales.unrecorded(sale.id(), user.id(), orderId);
            throw e;
        } catch (UnitsHeld e) {
            // Perhaps held by another instance's failed sends (it may be gone): resend them from here too.
            unsentSales.add(e.saleId());
            throw e;
        }
        if (outcome instanceof PurchaseOutcome.Queued queued) {
            publish(sale, user.id(), Long.parseLong(queued.orderId()), orderId, now, requestId, deadline);
        } else if (outcome instanceof PurchaseOutcome.AlreadyPurchased already
                && now - OrderIds.createdAt(Long.parseLong(already.orderId())).toEpochMilli() >= OWN_SEND.toMillis()) {
            sendNamed(sale, user.id(), Long.parseLong(already.orderId()), requestId, deadline);
        } else if (outcome instanceof PurchaseOutcome.SoldOut) {
            soldOut.markSoldOut(sale.id());
        }
        return outcome;
    }

    /**
     * Publishes the reserved order. {@code reserved} differs from this attempt's fresh id when purchase.lua answered
     * RESEND: the order is the one whose earlier send failed, sent again as it was (same id, creation time).
     */
    private void publish(Sale sale, long userId, long reserved, long freshId, long now, String requestId,
                         Deadline deadline) {
        boolean resend = reserved != freshId;
        long createdAt = resend ? OrderIds.createdAt(reserved).toEpochMilli() : now;
        OrderEvent event = OrderEvent.of(reserved, sale.id(), userId, sale.priceCents(), createdAt);
        OrderPublisher.Delivery delivery;
        try {
            long wait = Math.max(0, deadline.remainingMillis() - RECORD_TIME.toMillis());
            delivery = metrics.kafka().record(() -> publisher.publish(event, requestId, wait));
        } catch (DependencyUnavailable e) {
            // The answer names the order only once its record stands: a record that failed (Redis down too) or that
            // no replica confirmed (a failover may lose it with the unit) cannot promise a resend. That answer is the
            // plain 503; the resender still records and sends the order once Redis and its replicas answer.
            if (keepUnsent(sale.id(), userId, reserved, now)) {
                throw new OrderKept(Long.toString(reserved), e);
            }
            throw e;
        }
        PurchaseLog.queued(requestId, event, delivery, resend);
        if (resend) {
            forgetUnsent(sale.id(), userId, reserved);
        }
    }

    /**
     * ALREADY_PURCHASED names the buyer's order only once Kafka has it. The mark alone does not say so: the purchase
     * that made it may have died before Kafka acknowledged it (its service killed, its record never written), and
     * reconcile would then release the unit behind an answer that named it. So the order is sent again under its own
     * id first (the writer skips a duplicate of one that landed). No entry is written for it while it succeeds: an
     * unsent entry would make the sale's last units look held, and its other buyers would hear 503 instead of
     * SOLD_OUT. A failed send is kept and answered as any (503 naming the order once its record stands).
     */
    private void sendNamed(Sale sale, long userId, long orderId, String requestId, Deadline deadline) {
        OrderEvent event = OrderEvent.of(orderId, sale.id(), userId, sale.priceCents(),
                OrderIds.createdAt(orderId).toEpochMilli());
        try {
            long wait = Math.max(0, deadline.remainingMillis() - RECORD_TIME.toMillis());
            metrics.kafka().record(() -> publisher.publish(event, requestId, wait));
        } catch (DependencyUnavailable e) {
            if (keepUnsent(sale.id(), userId, orderId, clock.millis())) {
                throw new OrderKept(Long.toString(orderId), e);
            }
            throw e;
        }
    }

    /**
     * Records the failed send so a retry resends the order; true when the record stands (written, and confirmed by
     * the replicas where they are required: one only on the master is resent once they are back, or lost with the
     * unit in a failover). If Redis fails here too the unit is still safe: it is noted for the resender, which
     * records it once Redis answers; a retry meanwhile hears ALREADY_PURCHASED naming the order it then sends.
     */
    private boolean keepUnsent(long saleId, long userId, long orderId, long sentAt) {
        metrics.unsent();
        try {
            boolean kept = ledger.unsent(saleId, userId, orderId, sentAt);
            unsentSales.add(saleId);
            if (!kept) {
                LOG.warn("the failed send of order " + orderId + " (sale " + saleId
                        + ", user " + userId + ") is not confirmed as held for a resend (no mark, or replicas short)");
            }
            return kept;
        } catch (RuntimeException e) {
            LOG.warn("failed to record the failed send of order " + orderId + " (sale "
                    + saleId + ", user " + userId + "); the resender records it once Redis answers: " + e.getMessage(), e);
            unsentSales.unrecorded(saleId, userId, orderId);
            return false;
        }
    }

    /** The order is in Kafka: a stale entry would only resend it once more (a duplicate the writer skips). */
    private void forgetUnsent(long saleId, long userId, long orderId) {
        try {
            ledger.sent(saleId, userId, orderId);
        } catch (RuntimeException e) {
            LOG.warn("failed to forget the unsent entry of order " + orderId + " (sale "
                    + saleId + ", user " + userId + "); reconcile drops it: " + e.getMessage(), e);
        }
    }

    /**
     * Compensates a reservation that was never sent because its replicas did not confirm it. When that fails too the
     * unit is kept instead: a retry of the buyer may find the mark and name the order, so the resender records it and
     * sends it once Redis answers (unsent.lua keeps nothing if a failover lost the mark with its unit).
     */
    private void giveBack(long saleId, long userId, long orderId) {
        try {
            reopener.unitReturned(saleId, ledger.compensate(saleId, userId, orderId, Long.MAX_VALUE));
        } catch (RuntimeException e) {
            metrics.compensationFailed();
            LOG.warn("failed to give back the unit of order " + orderId + " (sale "
                    + saleId + ", user " + userId + "); it is kept, and the resender records and sends it once Redis "
                    + "answers: " + e.getMessage(), e);
            unsentSales.unrecorded(saleId, userId, orderId);
        }
    }
}
