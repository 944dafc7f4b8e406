package dev.seckill.purchase;

/** What purchase.lua decided; the integer codes are the script's return codes. */
public enum PurchaseOutcome {
    QUEUED(0),
    ALREADY_PURCHASED(1),
    SOLD_OUT(2),
    NOT_STARTED(3),
    SALE_ENDED(4),
    RATE_LIMITED(5),
    /** The sale's keys are not in Redis: never answered as SOLD_OUT or with fresh stock, but 503. */
    MISSING(-1);

    private final int code;

    PurchaseOutcome(int code) {
        this.code = code;
    }

    public static PurchaseOutcome of(long code) {
        for (PurchaseOutcome o : values()) {
            if (o.code == code) {
                return o;
            }
        }
        throw new IllegalStateException("purchase.lua returned unknown code " + code);
    }
}
