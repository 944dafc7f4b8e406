package dev.seckill.writer.observe;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.seckill.event.OrderEvent;
import dev.seckill.writer.batch.BatchResult;
import dev.seckill.writer.batch.RejectReason;
import dev.seckill.writer.batch.Rejection;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The writer's line of each row names the purchase's request id, read from the record's headers. */
class OrderLogTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(OrderLog.class);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
        logger.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
        logger.setLevel(null);
    }

    @Test
    void eachWrittenOrderIsOneLineWithItsRequestIdAndWhereItWasRead() {
        OrderEvent a = OrderEvent.of(11, 7, 1, 100, 1_700_000_000_000L);
        OrderEvent b = OrderEvent.of(12, 7, 2, 100, 1_700_000_000_000L);
        OrderEvent c = OrderEvent.of(13, 7, 3, 100, 1_700_000_000_000L);
        List<ConsumerRecord<byte[], byte[]>> sources = List.of(
                record(2, 40, a, "req-a"), record(2, 41, b, null), record(2, 42, c, "req-c"));
        BatchResult result = new BatchResult(2, 0, List.of(new Rejection(1, RejectReason.STOCK_GUARD, "no stock")),
                List.of(), 0);

        new OrderLog().written(sources, List.of(a, b, c), result);

        assertEquals(2, lines.list.size(), "the refused order has no row, so no line");
        Map<String, Object> first = fields(lines.list.get(0));
        assertEquals("req-a", first.get("requestId"));
        assertEquals("11", first.get("orderId"));
        assertEquals(2, first.get("partition"));
        assertEquals(40L, first.get("offset"));
        assertEquals(1L, first.get("batch"));
        assertEquals("req-c", fields(lines.list.get(1)).get("requestId"));
    }

    @Test
    void aRecordWithoutTheHeaderHasAnEmptyRequestId() {
        assertEquals("", OrderLog.requestId(record(0, 1, OrderEvent.of(1, 1, 1, 1, 1), null)));
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, OrderEvent e, String requestId) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>(OrderEvent.TOPIC, partition, offset,
                e.key().getBytes(StandardCharsets.UTF_8), e.toJson());
        if (requestId != null) {
            r.headers().add(OrderEvent.REQUEST_ID_HEADER, requestId.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    private static Map<String, Object> fields(ILoggingEvent line) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (KeyValuePair kv : line.getKeyValuePairs()) {
            m.put(kv.key, kv.value);
        }
        return m;
    }
}
