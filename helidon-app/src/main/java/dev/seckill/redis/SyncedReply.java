package dev.seckill.redis;

import org.redisson.api.BatchResult;

import java.util.List;

/** A script's reply, and how many replicas had acknowledged its writes when WAIT returned. */
public record SyncedReply(List<Object> reply, int replicas) {

    /** From a batch of one script and its WAIT: Redisson reports WAIT's count apart from the replies. */
    @SuppressWarnings("unchecked")
    public static SyncedReply of(BatchResult<?> batch) {
        if (batch.getResponses().size() != 1) {
            throw new IllegalStateException("expected the reply of one script, got " + batch.getResponses());
        }
        return new SyncedReply((List<Object>) batch.getResponses().get(0), batch.getSyncedSlaves());
    }
}
