package dev.seckill.purchase;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link UnitLedger} for unit tests: records what it was asked, and answers what the test set. */
public final class FakeLedger implements UnitLedger {

    private volatile long remainingAfterUndo = 5;
    private volatile boolean holds = true;
    private final List<Long> givenBack = new CopyOnWriteArrayList<>();
    private final List<Long> unsent = new CopyOnWriteArrayList<>();
    private final List<Long> sent = new CopyOnWriteArrayList<>();

    /** Back to nothing recorded, every failed send recorded, 5 units left after an undo. */
    public void reset() {
        remainingAfterUndo = 5;
        holds = true;
        givenBack.clear();
        unsent.clear();
        sent.clear();
    }

    /** What unsent answers: false as when the buyer's mark is no longer the order (a release came first). */
    public void holds(boolean holds) {
        this.holds = holds;
    }

    /** What compensate answers: the remaining stock after the unit came back. */
    public void remainingAfterUndo(long remaining) {
        this.remainingAfterUndo = remaining;
    }

    /** Order ids whose unit was given back, in order. */
    public List<Long> givenBack() {
        return givenBack;
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
