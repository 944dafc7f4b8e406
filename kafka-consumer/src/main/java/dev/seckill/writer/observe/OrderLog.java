package dev.seckill.writer.observe;

import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.Rejection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;

/**
 * The writer's line of each order whose row a committed batch holds: the last step of `bin/seckill trace`, naming
 * the purchase's request id (the record's {@value OrderEvent#REQUEST_ID_HEADER} header), the order, where it was
 * read and which batch wrote it. A redelivered order (a duplicate the batch skipped) gets its line again: the row
 * is the same. INFO, on by default: one queued line per order (logback.xml's async appender) next to a DB
 * transaction per batch. Used by the loop's one thread only.
 */
public final class OrderLog {

    private static final Logger LOG = LoggerFactory.getLogger(OrderLog.class);

    private long batches;

    /**
     * @param sources the records of {@code events}, index for index
     * @param result  what the batch transaction did (its rejections, by index into {@code events}, have no row)
     */
    public void written(List<ConsumerRecord<byte[], byte[]>> sources, List<OrderEvent> events, BatchResult result) {
        long batch = ++batches;
        if (!LOG.isInfoEnabled()) {
            return;
        }
        BitSet refused = new BitSet(events.size());
        for (Rejection r : result.rejections()) {
            refused.set(r.index());
        }
        for (int i = refused.nextClearBit(0); i < events.size(); i = refused.nextClearBit(i + 1)) {
            ConsumerRecord<byte[], byte[]> source = sources.get(i);
            OrderEvent event = events.get(i);
            LOG.atInfo()
                    .addKeyValue("requestId", requestId(source))
                    .addKeyValue("orderId", event.orderId())
                    .addKeyValue("saleId", event.saleId())
                    .addKeyValue("partition", source.partition())
                    .addKeyValue("offset", source.offset())
                    .addKeyValue("batch", batch)
                    .addKeyValue("batchSize", events.size())
                    .log("order row written");
        }
    }

    /** The purchase's request id from the record's headers; "" for a record sent without one. */
    public static String requestId(ConsumerRecord<?, ?> record) {
        Header h = record.headers().lastHeader(OrderEvent.REQUEST_ID_HEADER);
        return h == null || h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
