package dev.seckill.purchase;

import java.time.Clock;
import java.time.Instant;

/**
 * Order ids unique across instances and sortable by time (Snowflake layout): 41 bits of milliseconds since
 * 2025-01-01, 10 bits of node number (one per service instance, see Main), 12 bits of sequence within the
 * millisecond. 4,096 ids per millisecond per instance; beyond that it waits for the next millisecond.
 */
public final class OrderIds {

    static final long EPOCH = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    public static final int NODE_BITS = 10;
    private static final int SEQUENCE_BITS = 12;
    private static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;

    private final Clock clock;
    private final long node;
    private long lastMillis = -1;
    private long sequence;

    public OrderIds(Clock clock, long node) {
        if (node < 0 || node >= (1L << NODE_BITS)) {
            throw new IllegalArgumentException("node must be in [0, 1024)");
        }
        this.clock = clock;
        this.node = node;
    }

    public synchronized long next() {
        long now = clock.millis();
        // A clock that steps back must not repeat ids: keep using the last millisecond until it catches up.
        if (now < lastMillis) {
            now = lastMillis;
        }
        if (now == lastMillis) {
            sequence = (sequence + 1) & MAX_SEQUENCE;
            if (sequence == 0) {
                now = lastMillis + 1;
            }
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return ((now - EPOCH) << (NODE_BITS + SEQUENCE_BITS)) | (node << SEQUENCE_BITS) | sequence;
    }

    /** The creation time encoded in an id. */
    public static Instant createdAt(long id) {
        return Instant.ofEpochMilli((id >>> (NODE_BITS + SEQUENCE_BITS)) + EPOCH);
    }
}
