package dev.seckill.writer.deadletter;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * Builds the dead-letter record: the original key, value and headers unchanged, plus where it came from and why
 * it was refused. Header values are UTF-8 text so a console consumer shows them as they are.
 */
public final class DeadLetterHeaders {

    /** Topic the record was consumed from. */
    public static final String ORIGINAL_TOPIC = "dlt.original.topic";
    /** Its partition, in decimal. */
    public static final String ORIGINAL_PARTITION = "dlt.original.partition";
    /** Its offset, in decimal. */
    public static final String ORIGINAL_OFFSET = "dlt.original.offset";
    /** The stable reason code: a {@link dev.seckill.writer.batch.RejectReason} name. */
    public static final String REASON = "dlt.reason";
    /** The reason in words, for people. */
    public static final String DETAIL = "dlt.detail";

    private DeadLetterHeaders() {
    }

    public static ProducerRecord<byte[], byte[]> record(String topic, DeadLetter letter) {
        RecordHeaders headers = new RecordHeaders(letter.origin().headers().toArray());
        add(headers, ORIGINAL_TOPIC, letter.origin().topic());
        add(headers, ORIGINAL_PARTITION, Integer.toString(letter.origin().partition()));
        add(headers, ORIGINAL_OFFSET, Long.toString(letter.origin().offset()));
        add(headers, REASON, letter.reason().name());
        add(headers, DETAIL, letter.detail());
        return new ProducerRecord<>(topic, null, letter.origin().key(), letter.origin().value(), headers);
    }

    /** The text value of the last header with this name, or null. */
    public static String text(Iterable<Header> headers, String name) {
        String value = null;
        for (Header h : headers) {
            if (h.key().equals(name) && h.value() != null) {
                value = new String(h.value(), StandardCharsets.UTF_8);
            }
        }
        return value;
    }

    private static void add(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
