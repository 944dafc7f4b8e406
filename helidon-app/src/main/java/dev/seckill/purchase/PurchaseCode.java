package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.sale.Sale;

import java.util.List;

/**
 * The return codes of purchase.lua, as its header lists them (docs/redis.md). The integers are written here and
 * nowhere else: {@link #of} reads them, and {@link #outcome} is the one switch that turns a code into the
 * {@link PurchaseOutcome} (or the failure) its purchase answers with.
 */
public enum PurchaseCode {

    /** A unit was taken under the attempt's order id; data: the remaining stock. */
    QUEUED(0),
    /** The buyer already holds an order in the sale; data: its id. */
    ALREADY_PURCHASED(1),
    /** No stock left and no unit held for a resend. */
    SOLD_OUT(2),
    /** data: ms until the start. */
    NOT_STARTED(3),
    SALE_ENDED(4),
    /** data: ms until the buyer's next token. */
    RATE_LIMITED(5),
    /** Internal: the buyer's unit is held for an earlier order whose send failed; data: that order's id. */
    RESEND(6),
    /** No stock left but units held for failed sends; data: how many. */
    HELD(7),
    /**
     * The order id was fenced by confirm.lua after its call's answer was lost and its attempt answered 503 holding
     * nothing: this is a late copy of that call, and it wrote nothing.
     */
    FENCED(8),
    /** The sale's stock key or window is gone. */
    MISSING(-1);

    private static final PurchaseCode[] ALL = values();

    private final int code;

    PurchaseCode(int code) {
        this.code = code;
    }

    /** The code of a reply's integer; an integer the script never returns is a bug, not an outcome. */
    static PurchaseCode of(long code) {
        for (PurchaseCode c : ALL) {
            if (c.code == code) {
                return c;
            }
        }
        throw new IllegalStateException("purchase.lua returned unknown code " + code);
    }

    /** One buyer's {@code {code, data}} pair of a purchase.lua reply, for the attempt made under {@code orderId}. */
    static PurchaseOutcome outcome(Sale sale, long orderId, List<Object> reply) {
        return of(((Number) reply.get(0)).longValue()).outcome(sale, orderId, reply.get(1));
    }

    /**
     * @throws UnitsHeld for {@link #HELD}
     * @throws DependencyUnavailable for {@link #FENCED} and {@link #MISSING}
     */
    PurchaseOutcome outcome(Sale sale, long orderId, Object data) {
        return switch (this) {
            case QUEUED -> new PurchaseOutcome.Queued(Long.toString(orderId));
            // Our own order id: the client retried a script that had run (its answer was lost), so it is ours.
            case ALREADY_PURCHASED -> data.toString().equals(Long.toString(orderId))
                    ? new PurchaseOutcome.Queued(Long.toString(orderId))
                    : new PurchaseOutcome.AlreadyPurchased(data.toString());
            case SOLD_OUT -> new PurchaseOutcome.SoldOut(false);
            case NOT_STARTED -> new PurchaseOutcome.NotStarted(sale.startsAt(), ((Number) data).longValue());
            case SALE_ENDED -> new PurchaseOutcome.SaleEnded();
            case RATE_LIMITED -> new PurchaseOutcome.RateLimited(((Number) data).longValue());
            // The buyer's unit is still held for an order whose send failed: queue that order again, same id.
            case RESEND -> new PurchaseOutcome.Queued(data.toString());
            // Sold out but for units held by failed sends: they come back, so 503 and no sold-out flag.
            case HELD -> throw new UnitsHeld(sale.id(), ((Number) data).longValue());
            // Only a copy of a call already answered 503 meets its fence; should an attempt hear it, nothing is held.
            case FENCED -> throw new DependencyUnavailable("order " + orderId + " of sale " + sale.id()
                    + " is fenced (its attempt was answered as holding nothing); it reserved nothing");
            // Keys gone (Redis lost its data, or the sale is being rebuilt): never SOLD_OUT, never fresh stock.
            case MISSING -> throw new DependencyUnavailable("the Redis keys of sale " + sale.id() + " are missing; "
                    + "reconcile rebuilds them");
        };
    }
}
