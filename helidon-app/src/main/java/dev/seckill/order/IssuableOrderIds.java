package dev.seckill.order;

import dev.seckill.purchase.OrderIds;
import dev.seckill.sale.SaleCatalog;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongPredicate;

/**
 * Whether an order id could have been issued, read from the id alone: it carries its creation time
 * ({@link OrderIds}), and an id is minted only for a purchase that purchase.lua then judges inside its sale's
 * window. So an id from the future, from before the epoch, or from a time when no known sale was selling names no
 * order, and its lookup costs neither the database nor Redis — a flood of random ids (almost all of them decode to
 * times decades ahead) reads nothing. An id that passes is looked up as usual.
 */
public final class IssuableOrderIds implements LongPredicate {

    /**
     * Slack on both sides of the windows and ahead of this clock: other instances' clocks may run ahead of ours,
     * and an id minted in a millisecond whose sequence ran out takes the next one.
     */
    static final long SLACK_MILLIS = 60_000;

    private final SaleCatalog catalog;
    private final Clock clock;

    public IssuableOrderIds(SaleCatalog catalog, Clock clock) {
        this.catalog = catalog;
        this.clock = clock;
    }

    @Override
    public boolean test(long orderId) {
        if (orderId <= 0) {
            return false;
        }
        Instant created = OrderIds.createdAt(orderId);
        if (created.isAfter(clock.instant().plusMillis(SLACK_MILLIS))) {
            return false;
        }
        return catalog.sellingAt(created, SLACK_MILLIS);
    }
}
