package dev.seckill.purchase;

/**
 * Lets buyers in again when a unit comes back to a sale that had none (a compensation, a reconcile release or
 * conserve): this instance's sold-out flag at once, and every edge's through {@link EdgeFlags}. Another service
 * instance's own flag is not reached; it lapses by its TTL ({@code seckill.soldout.ttl-ms}).
 */
public final class Reopener {

    private final SoldOutFlags local;
    private final EdgeFlags edges;

    public Reopener(SoldOutFlags local, EdgeFlags edges) {
        this.local = local;
        this.edges = edges;
    }

    /** After one unit came back: {@code remaining} 1 means the sale had none before, so buyers may be turned away. */
    public void unitReturned(long saleId, long remaining) {
        if (remaining == 1) {
            reopen(saleId);
        }
    }

    /** The sale has stock again. */
    public void reopen(long saleId) {
        local.clear(saleId);
        edges.clearSoldOut(saleId);
    }
}
