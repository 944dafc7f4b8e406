package dev.seckill.purchase;

/**
 * One attempt's decision: its outcome, or the failure its purchase answers with. A call decides several attempts,
 * and each may fail alone (its keys missing, its replicas short), so a failure is a value here until
 * {@link #get()} throws it on the attempt's own thread.
 */
public record Decision(PurchaseOutcome outcome, RuntimeException failure) {

    static Decision of(PurchaseOutcome outcome) {
        return new Decision(outcome, null);
    }

    static Decision failed(RuntimeException failure) {
        return new Decision(null, failure);
    }

    /** The outcome, or the failure thrown. */
    public PurchaseOutcome get() {
        if (failure != null) {
            throw failure;
        }
        return outcome;
    }
}
