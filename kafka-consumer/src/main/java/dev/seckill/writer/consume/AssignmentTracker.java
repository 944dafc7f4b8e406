package dev.seckill.writer.consume;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Logs partition ownership changes and keeps a snapshot of the assignment that other threads (health, tests) may
 * read. It flushes nothing: the loop holds no batch across a poll, and the callbacks run only inside poll.
 */
final class AssignmentTracker implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(AssignmentTracker.class);

    private volatile Set<TopicPartition> owned = Set.of();

    Set<TopicPartition> owned() {
        return owned;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            LOG.info("partitions revoked: " + partitions);
        }
        owned = without(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            LOG.info("partitions assigned: " + partitions);
        }
        // Cooperative rebalancing hands over only the new partitions: add them to what we keep.
        Set<TopicPartition> now = new HashSet<>(owned);
        now.addAll(partitions);
        owned = Set.copyOf(now);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        LOG.warn("partitions lost (session expired): " + partitions);
        owned = without(partitions);
    }

    private Set<TopicPartition> without(Collection<TopicPartition> gone) {
        Set<TopicPartition> left = new HashSet<>(owned);
        left.removeAll(gone);
        return Set.copyOf(left);
    }
}
