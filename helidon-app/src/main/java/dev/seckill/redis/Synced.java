package dev.seckill.redis;

import org.redisson.api.BatchResult;

/** An integer script's reply, and how many replicas had acknowledged the connection's writes when WAIT returned. */
public record Synced(long reply, int replicas) {

    /** From a batch of one script and its WAIT: Redisson reports WAIT's count apart from the replies. */
    public static Synced of(BatchResult<?> batch) {
        if (batch.getResponses().size() != 1) {
            throw new IllegalStateException("expected the reply of one script, got " + batch.getResponses());
        }
        return new Synced(((Number) batch.getResponses().get(0)).longValue(), batch.getSyncedSlaves());
    }
}
