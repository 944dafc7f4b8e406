package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link UnitLedger} for unit tests: records what it was asked, and answers what the test set. */
public final class FakeLedger implements UnitLedger {

    private volatile long remainingAfterUndo = 5;
    private volatile boolean holds = true;
    private volatile boolean down;
    private final List<Long> givenBack = new CopyOnWriteArrayList<>();
    private final List<Long> unsent = new CopyOnWriteArrayList<>();
    private final List<Long> sent = new CopyOnWriteArrayList<>();

    /** Back to nothing recorded, every failed send recorded, 5 units left after an undo. */
    public void reset() {
        remainingAfterUndo = 5;
        holds = true;
        down = false;
        givenBack.clear();
        unsent.clear();
        sent.clear();
    }

    /** What unsent answers: false as when the buyer's mark is no longer the order (a release came first). */
    public void holds(boolean holds) {
        this.holds = holds;
    }

    /** While down, compensate and unsent fail as Redis failing would (nothing recorded). */
    public void down(boolean down) {
        this.down = down;
    }

    private void failIfDown(String script) {
        if (down) {
            throw new DependencyUnavailable("failed to run " + script + ": Redis is down");
        }
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
        failIfDown("compensate.lua");
        givenBack.add(orderId);
        return remainingAfterUndo;
    }

    @Override
    public boolean unsent(long saleId, long userId, long orderId, long sentAtMillis) {
        failIfDown("unsent.lua");
        unsent.add(orderId);
        return holds;
    }

    @Override
    public void sent(long saleId, long userId, long orderId) {
        sent.add(orderId);
    }
}
