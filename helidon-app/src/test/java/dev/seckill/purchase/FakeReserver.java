package dev.seckill.purchase;

import dev.seckill.sale.Sale;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link StockReserver} for unit tests: answers what the test set (by default it reserves, as purchase.lua does
 * with stock left), or throws what the test set, and records what it was asked to give back.
 */
public final class FakeReserver implements StockReserver {

    private volatile PurchaseOutcome answer;
    private volatile RuntimeException failure;
    private volatile Runnable duringReserve = () -> { };
    private volatile long remainingAfterUndo = 5;
    private volatile boolean holds = true;
    private final AtomicInteger reserveCalls = new AtomicInteger();
    private final List<Long> givenBack = new CopyOnWriteArrayList<>();
    private final List<Long> unsent = new CopyOnWriteArrayList<>();
    private final List<Long> sent = new CopyOnWriteArrayList<>();

    /** Back to reserving every attempt, with nothing given back yet. */
    public void reset() {
        answer = null;
        failure = null;
        duringReserve = () -> { };
        remainingAfterUndo = 5;
        holds = true;
        reserveCalls.set(0);
        givenBack.clear();
        unsent.clear();
        sent.clear();
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

    /** What unsent answers: false as when the buyer's mark is no longer the order (a release came first). */
    public void holds(boolean holds) {
        this.holds = holds;
    }

    /** What compensate answers: the remaining stock after the unit came back. */
    public void remainingAfterUndo(long remaining) {
        this.remainingAfterUndo = remaining;
    }

    public int reserveCalls() {
        return reserveCalls.get();
    }

    /** Order ids whose unit was given back, in order. */
    public List<Long> givenBack() {
        return givenBack;
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

    /** Order ids whose failed send was recorded (the unit kept for a resend), in order. */
    public List<Long> unsent() {
        return unsent;
    }

    /** Order ids whose unsent entry was forgotten after a resend was acknowledged, in order. */
    public List<Long> sent() {
        return sent;
    }

    @Override
    public long compensate(long saleId, long userId, long orderId, long sentBeforeMillis) {
        givenBack.add(orderId);
        return remainingAfterUndo;
    }

    @Override
    public boolean unsent(long saleId, long userId, long orderId, long sentAtMillis) {
        unsent.add(orderId);
        return holds;
    }

    @Override
    public void sent(long saleId, long userId, long orderId) {
        sent.add(orderId);
    }
}
