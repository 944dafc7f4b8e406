package dev.seckill.chaos.check;

import dev.seckill.testkit.ClusterStack;

import java.util.List;

/** What MySQL and every Redis master hold for the run's sales, read directly (never through the service). */
public record FinalState() {

    /** Reads the sales' rows and keys on the cluster (healed, reconciled, the writer caught up). */
    public static FinalState read(ClusterStack cluster, List<Long> saleIds) {
        throw new UnsupportedOperationException("to be written");
    }
}
