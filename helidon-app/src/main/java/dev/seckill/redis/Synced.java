package dev.seckill.redis;

import org.redisson.api.BatchResult;

import java.util.List;

/**
 * An array script's replies (integers), and how many replicas had acknowledged the connection's writes when WAIT
 * returned.
 */
public record Synced(List<Long> replies, int replicas) {

    public Synced {
        replies = List.copyOf(replies);
    }

    /** From a batch of one array script and its WAIT: Redisson reports WAIT's count apart from the replies. */
    public static Synced of(BatchResult<?> batch) {
        if (batch.getResponses().size() != 1 || !(batch.getResponses().get(0) instanceof List<?> replies)) {
            throw new IllegalStateException("expected the array reply of one script, got " + batch.getResponses());
        }
        return new Synced(replies.stream().map(r -> ((Number) r).longValue()).toList(), batch.getSyncedSlaves());
    }
}
