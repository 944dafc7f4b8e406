package dev.seckill.archive;

import java.time.Duration;
import java.util.Map;

/**
 * Whether an ended sale may leave Redis (docs/redis.md, archiving): never while it can still sell (its end, plus the
 * grace within which a purchase that started before it may still be in flight, has not passed) nor while an order of
 * it is still QUEUED (a buyer mark has no DB row with its order id yet: the mark is made before the event is sent, so
 * an event the writer has not written always shows as one; the writer's lag on other sales does not hold this one
 * back); then once its orders are final (none
 * CONFIRMED and unpaid, no unit owed to Redis), or, if some are not, once the retention after its end has passed
 * (their expiry later finds no keys and settles their units in the database alone).
 *
 * @param marks       Redis buyer marks, userId -> orderId
 * @param written     the sale's written orders, userId -> orderId
 * @param confirmed   written orders still CONFIRMED (not paid, not expired)
 * @param unitsOwed   units expired orders still owe to Redis
 */
record Settlement(long endMillis, long nowMillis, Map<Long, Long> marks, Map<Long, Long> written, long confirmed,
                  long unitsOwed) {

    /** The verdict, with the reason for the log. */
    enum Verdict { SELLING, QUEUED, PENDING, SETTLED, RETAINED_LONG_ENOUGH }

    Verdict judge(Duration grace, Duration retention) {
        if (nowMillis < endMillis + grace.toMillis()) {
            return Verdict.SELLING;
        }
        if (!marks.entrySet().stream()
                .allMatch(m -> m.getValue().equals(written.get(m.getKey())))) {
            return Verdict.QUEUED;
        }
        if (confirmed == 0 && unitsOwed == 0) {
            return Verdict.SETTLED;
        }
        return nowMillis >= endMillis + retention.toMillis() ? Verdict.RETAINED_LONG_ENOUGH : Verdict.PENDING;
    }

    static boolean archivable(Verdict v) {
        return v == Verdict.SETTLED || v == Verdict.RETAINED_LONG_ENOUGH;
    }
}
