package dev.seckill.sale;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * The union of the known sales' selling windows, as disjoint intervals: whether anything could have been sold at a
 * given instant (an order id carries its creation time, and purchase.lua sells only inside a sale's window). Thread
 * safe; a few hundred bytes however many sales, since sales run in few distinct periods.
 */
final class SaleWindows {

    /** start -> end (epoch ms) of disjoint, non-touching intervals. */
    private final TreeMap<Long, Long> spans = new TreeMap<>();

    synchronized void add(Instant start, Instant end) {
        long s = start.toEpochMilli();
        long e = end.toEpochMilli();
        Map.Entry<Long, Long> before = spans.floorEntry(s);
        if (before != null && before.getValue() >= s) {
            s = before.getKey();
            e = Math.max(e, before.getValue());
        }
        for (Map.Entry<Long, Long> next = spans.ceilingEntry(s); next != null && next.getKey() <= e;
             next = spans.ceilingEntry(s)) {
            e = Math.max(e, next.getValue());
            spans.remove(next.getKey());
        }
        spans.put(s, e);
    }

    /** True when {@code t} lies in some window widened by {@code slackMillis} on both sides. */
    synchronized boolean covers(Instant t, long slackMillis) {
        long at = t.toEpochMilli();
        Map.Entry<Long, Long> e = spans.floorEntry(at + slackMillis);
        return e != null && e.getValue() + slackMillis >= at;
    }
}
