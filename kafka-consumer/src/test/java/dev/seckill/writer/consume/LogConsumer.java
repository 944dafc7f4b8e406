package dev.seckill.writer.consume;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A MockConsumer that behaves like a broker's log for one partition: the records stay, so a seek back reads them
 * again (MockConsumer alone forgets records once returned). It takes the partition on the first poll after
 * subscribe, and an empty poll blocks briefly like a real one instead of spinning.
 */
final class LogConsumer extends MockConsumer<byte[], byte[]> {

    static final TopicPartition TP = new TopicPartition(Records.TOPIC, 0);

    private final List<ConsumerRecord<byte[], byte[]>> log = new CopyOnWriteArrayList<>();
    /** Every committed offset of the partition, in order; readable after close. */
    final List<Long> commits = new CopyOnWriteArrayList<>();
    /** This many commits fail next, as with a broker whose group coordinator is not ready yet. */
    volatile int failingCommits;

    LogConsumer() {
        super("earliest");
    }

    void append(ConsumerRecord<byte[], byte[]> record) {
        log.add(record);
    }

    @Override
    public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        if (failingCommits > 0) {
            failingCommits--;
            throw new org.apache.kafka.common.errors.TimeoutException("the coordinator is loading");
        }
        super.commitSync(offsets);
        if (offsets.containsKey(TP)) {
            commits.add(offsets.get(TP).offset());
        }
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        if (assignment().isEmpty() && !subscription().isEmpty()) {
            updateBeginningOffsets(Map.of(TP, 0L));
            rebalance(List.of(TP));
        }
        if (assignment().contains(TP)) {
            updateEndOffsets(Map.of(TP, (long) log.size()));
            long position = position(TP);
            log.stream().filter(r -> r.offset() >= position).forEach(this::addRecord);
        }
        ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
        if (records.isEmpty()) {
            LockSupport.parkNanos(Math.min(timeout.toNanos(), TimeUnit.MILLISECONDS.toNanos(2)));
        }
        return records;
    }
}
