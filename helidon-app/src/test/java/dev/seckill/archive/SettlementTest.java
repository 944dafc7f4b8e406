package dev.seckill.archive;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static dev.seckill.archive.Settlement.Verdict.PENDING;
import static dev.seckill.archive.Settlement.Verdict.QUEUED;
import static dev.seckill.archive.Settlement.Verdict.RETAINED_LONG_ENOUGH;
import static dev.seckill.archive.Settlement.Verdict.SELLING;
import static dev.seckill.archive.Settlement.Verdict.SETTLED;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SettlementTest {

    private static final long END = 1_000_000;
    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final Map<Long, Long> MARKS = Map.of(1L, 11L, 2L, 22L);

    private static Settlement.Verdict at(long now, Map<Long, Long> written, long confirmed, long owed) {
        return new Settlement(END, now, MARKS, written, confirmed, owed).judge(GRACE, RETENTION);
    }

    @Test
    void aSaleThatMayStillSellOrHasAQueuedOrderStays() {
        assertEquals(SELLING, at(END - 1, MARKS, 0, 0));
        assertEquals(SELLING, at(END + 29_999, MARKS, 0, 0), "a purchase begun before the end may be in flight");
        assertEquals(QUEUED, at(END + 30_000, Map.of(1L, 11L), 0, 0), "buyer 2 has no row yet");
        assertEquals(QUEUED, at(END + 30_000, Map.of(1L, 11L, 2L, 99L), 0, 0), "buyer 2's row is another order");
        assertEquals(QUEUED, at(END + RETENTION.toMillis() * 10, Map.of(1L, 11L), 0, 0),
                "never while QUEUED, however long ago it ended");
    }

    @Test
    void aSaleWhoseOrdersAreFinalIsSettled() {
        assertEquals(SETTLED, at(END + 30_000, MARKS, 0, 0));
    }

    @Test
    void unpaidOrdersKeepItUntilTheRetentionHasPassed() {
        assertEquals(PENDING, at(END + 30_000, MARKS, 1, 0));
        assertEquals(PENDING, at(END + 30_000, MARKS, 0, 1), "a unit still owed to Redis");
        assertEquals(RETAINED_LONG_ENOUGH, at(END + RETENTION.toMillis(), MARKS, 1, 0));
    }
}
