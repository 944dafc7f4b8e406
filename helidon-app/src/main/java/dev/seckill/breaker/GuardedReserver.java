package dev.seckill.breaker;

import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.StockReserver;
import dev.seckill.sale.Sale;

/**
 * The stock reserver behind the Kafka and Redis breakers. Kafka's is consulted first: a purchase that could not be
 * published must not take a unit, so while Kafka is known down nothing is reserved and nothing is left to give
 * back. Its permit is kept only by a reservation (whose send then records the outcome, see
 * {@link dev.seckill.purchase.OrderPublisher}); any other answer gives it back. Giving a unit back and recording
 * a send's fate (compensate, unsent, sent) are never refused: they follow a reservation, so Redis answered a moment
 * ago.
 */
public final class GuardedReserver implements StockReserver {

    private final StockReserver reserver;
    private final SaleBreakers redis;
    private final Breaker kafka;

    /** @param redis one breaker per sale: a shard's failover refuses only that shard's sales */
    public GuardedReserver(StockReserver reserver, SaleBreakers redis, Breaker kafka) {
        this.reserver = reserver;
        this.redis = redis;
        this.kafka = kafka;
    }

    @Override
    public PurchaseOutcome reserve(Sale sale, long userId, long orderId, long nowMillis) {
        kafka.admit();
        PurchaseOutcome outcome = null;
        try {
            outcome = redis.of(sale.id()).call(() -> reserver.reserve(sale, userId, orderId, nowMillis));
            return outcome;
        } finally {
            if (!(outcome instanceof PurchaseOutcome.Queued)) {
                kafka.release();
            }
        }
    }

    @Override
    public long compensate(long saleId, long userId, long orderId, long sentBeforeMillis) {
        return reserver.compensate(saleId, userId, orderId, sentBeforeMillis);
    }

    @Override
    public boolean unsent(long saleId, long userId, long orderId, long sentAtMillis) {
        return reserver.unsent(saleId, userId, orderId, sentAtMillis);
    }

    @Override
    public void sent(long saleId, long userId, long orderId) {
        reserver.sent(saleId, userId, orderId);
    }
}
