package dev.seckill.purchase;

import dev.seckill.sale.Sale;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StockReserver} for unit tests: answers what the test set (by default it reserves, as purchase.lua does
 * with stock left), or throws what the test set.
 */
public final class FakeReserver implements StockReserver {

    private volatile PurchaseOutcome answer;
    private volatile RuntimeException failure;
    private volatile Runnable duringReserve = () -> { };
    private final AtomicInteger reserveCalls = new AtomicInteger();

    /** Back to reserving every attempt. */
    public void reset() {
        answer = null;
        failure = null;
        duringReserve = () -> { };
        reserveCalls.set(0);
    }

    /** The next attempts get this outcome instead of a reservation. */
    public void answer(PurchaseOutcome outcome) {
        this.answer = outcome;
    }

    /** The next attempts fail with this (as Redis failing, or the sale's keys missing, would). */
    public void fail(RuntimeException e) {
        this.failure = e;
    }

    /** Runs while a reservation is being made: what another request does meanwhile. */
    public void duringReserve(Runnable r) {
        this.duringReserve = r;
    }

    public int reserveCalls() {
        return reserveCalls.get();
    }

    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        reserveCalls.incrementAndGet();
        duringReserve.run();
        if (failure != null) {
            throw failure;
        }
        return answer != null ? answer : new PurchaseOutcome.Queued(Long.toString(orderId));
    }
}
