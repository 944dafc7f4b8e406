package dev.seckill.purchase;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SoldOutFlagsTest {

    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    };

    @Test
    void aFlagHoldsForItsTtlThenExpires() {
        SoldOutFlags flags = new SoldOutFlags(clock, 1000);
        flags.markSoldOut(7);
        assertTrue(flags.isSoldOut(7));
        assertFalse(flags.isSoldOut(8));
        millis.addAndGet(999);
        assertTrue(flags.isSoldOut(7));
        millis.addAndGet(1);
        assertFalse(flags.isSoldOut(7));
    }

    @Test
    void clearingReopensAtOnce() {
        SoldOutFlags flags = new SoldOutFlags(clock, 1000);
        flags.markSoldOut(7);
        flags.clear(7);
        assertFalse(flags.isSoldOut(7));
    }
}
