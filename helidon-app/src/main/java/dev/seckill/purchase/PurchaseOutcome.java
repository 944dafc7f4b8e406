package dev.seckill.purchase;

import dev.seckill.identity.TokenRefusal;

import java.time.Instant;

/**
 * What one purchase attempt comes to, each kind carrying exactly what its answer needs. It is made once (from
 * purchase.lua's return code by the {@link StockReserver}, or by the checks before the script) and answered once
 * (the switch of {@link PurchaseService}); metrics count it by {@link #tag()}. A failing dependency is not an
 * outcome: it is a {@code DependencyUnavailable}, answered 503 by the error handlers.
 */
public sealed interface PurchaseOutcome {

    /** A unit is reserved for the buyer under {@code orderId}; once published, the order is queued (202). */
    record Queued(String orderId) implements PurchaseOutcome {
    }

    /** The buyer already has an order in this sale (409), so a retry after a lost answer can show success. */
    record AlreadyPurchased(String orderId) implements PurchaseOutcome {
    }

    /** No stock left (410); {@code local}: answered from this instance's flag without asking Redis. */
    record SoldOut(boolean local) implements PurchaseOutcome {
    }

    /** The sale is over (410). */
    record SaleEnded() implements PurchaseOutcome {
    }

    /** Too early (409): the sale's start, and how long until then for Retry-After. */
    record NotStarted(Instant startsAt, long waitMillis) implements PurchaseOutcome {
    }

    /** The buyer's token bucket in this sale is empty (429): how long until the next token. */
    record RateLimited(long waitMillis) implements PurchaseOutcome {
    }

    /** No such sale (404). */
    record SaleNotFound() implements PurchaseOutcome {
    }

    /** No valid bearer token (401): why. */
    record Unauthenticated(TokenRefusal reason) implements PurchaseOutcome {
    }

    /** A protected sale bought on the plain route (403): the path comes from POST /api/sales/{id}/path. */
    record PathRequired() implements PurchaseOutcome {
    }

    /** A forged, expired, other user's or other sale's path (403), refused before Redis. */
    record PathInvalid() implements PurchaseOutcome {
    }

    /** A waiting-room sale bought without a valid ticket of the buyer's own (403): {@code code} says why. */
    record TicketRefused(String code) implements PurchaseOutcome {
    }

    /**
     * A waiting-room sale bought by a buyer whose turn has not come (429): their place and the people ahead when the
     * ticket has one (else null), and how long until they should ask the line again.
     */
    record NotAdmitted(Long position, Long ahead, long waitMillis) implements PurchaseOutcome {
    }

    /** The metric tag: the answer's code, with SOLD_OUT_LOCAL for the sold-out answers Redis never saw. */
    default String tag() {
        return switch (this) {
            case Queued q -> "QUEUED";
            case AlreadyPurchased a -> "ALREADY_PURCHASED";
            case SoldOut s -> s.local() ? "SOLD_OUT_LOCAL" : "SOLD_OUT";
            case SaleEnded e -> "SALE_ENDED";
            case NotStarted n -> "NOT_STARTED";
            case RateLimited r -> "RATE_LIMITED";
            case SaleNotFound n -> "SALE_NOT_FOUND";
            case Unauthenticated u -> "UNAUTHENTICATED";
            case PathRequired r -> "PATH_REQUIRED";
            case PathInvalid i -> "PATH_INVALID";
            case TicketRefused t -> t.code();
            case NotAdmitted n -> "NOT_ADMITTED";
        };
    }
}
