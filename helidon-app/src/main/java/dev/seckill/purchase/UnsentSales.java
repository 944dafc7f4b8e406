package dev.seckill.purchase;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the {@link Resender} looks at, so an idle instance reads nothing: the sales in which this instance has met
 * orders whose send to Kafka failed (those it recorded itself, and those whose held units it answered: an entry
 * another instance left), and the reservations whose fate it could not record because Redis failed at that moment
 * ({@link Unrecorded}).
 */
public final class UnsentSales {

    /**
     * A unit that may be held for an order no record in Redis speaks for: its reservation was not confirmed by the
     * replicas and giving it back failed, or its send to Kafka failed and so did the record of that failure, or
     * purchase.lua's answer was lost and so was the question whether it reserved. A retry of the buyer that finds the
     * mark names the order (ALREADY_PURCHASED), so the unit must not be left for reconcile to release: once Redis
     * answers, the resender records it as unsent (unsent.lua, which keeps nothing when the mark is not this order)
     * and sends it like any other.
     */
    public record Unrecorded(long saleId, long userId, long orderId) {
    }

    private final Set<Long> sales = ConcurrentHashMap.newKeySet();
    private final Set<Unrecorded> unrecorded = ConcurrentHashMap.newKeySet();

    public void add(long saleId) {
        sales.add(saleId);
    }

    /** Forgets a sale whose unsent entries are all gone; a later failed send adds it again. */
    public void remove(long saleId) {
        sales.remove(saleId);
    }

    public List<Long> snapshot() {
        return List.copyOf(sales);
    }

    /** Notes a reservation whose record could not be written; the resender writes it once Redis answers. */
    public void unrecorded(long saleId, long userId, long orderId) {
        unrecorded.add(new Unrecorded(saleId, userId, orderId));
    }

    public List<Unrecorded> unrecorded() {
        return List.copyOf(unrecorded);
    }

    /** The reservation's record is written (or there was nothing to hold): its sale's entries are looked at. */
    public void recorded(Unrecorded u) {
        unrecorded.remove(u);
        sales.add(u.saleId());
    }
}
