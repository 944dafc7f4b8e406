package dev.seckill.sale;

/**
 * What release.lua did with the unit of an expired order (lua/release.lua names the codes).
 *
 * @param remaining the sale's remaining stock after a {@link Kind#RETURNED}; 0 otherwise
 */
public record UnitReturn(Kind kind, long remaining) {

    /** One order whose unit is owed back to its sale. */
    public record Request(long saleId, long userId, long orderId) {
    }

    public enum Kind {
        /** The unit is back on sale. */
        RETURNED,
        /** This order's unit had come back before: a retry or another instance. */
        ALREADY,
        /** The buyer's mark is not this order: nothing changed; reconcile counts the order from the database. */
        NOT_HELD,
        /** The sale's keys are gone: nothing changed; reconcile rebuilds them from the database. */
        MISSING
    }

    /** The script's integer reply. */
    public static UnitReturn of(long reply) {
        if (reply >= 1) {
            return new UnitReturn(Kind.RETURNED, reply);
        }
        return new UnitReturn(switch ((int) reply) {
            case 0 -> Kind.ALREADY;
            case -1 -> Kind.NOT_HELD;
            case -2 -> Kind.MISSING;
            default -> throw new IllegalStateException("release.lua returned unknown code " + reply);
        }, 0);
    }

    /** The unit came back to a sale that had none left: sold-out flags must be cleared for it to sell. */
    public boolean reopened() {
        return kind == Kind.RETURNED && remaining == 1;
    }
}
