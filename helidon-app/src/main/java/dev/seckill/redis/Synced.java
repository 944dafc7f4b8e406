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

    /**
     * From a batch of one script (an array of integers, or one integer) and its WAIT: Redisson reports WAIT's count
     * apart from the replies.
     */
    public static Synced of(BatchResult<?> batch) {
        List<?> responses = batch.getResponses();
        if (responses.size() == 1 && responses.getFirst() instanceof Number n) {
            return new Synced(List.of(n.longValue()), batch.getSyncedSlaves());
        }
        if (responses.size() != 1 || !(responses.getFirst() instanceof List<?> replies)) {
            throw new IllegalStateException("expected the reply of one script, got " + responses);
        }
        return new Synced(replies.stream().map(r -> ((Number) r).longValue()).toList(), batch.getSyncedSlaves());
    }
}
