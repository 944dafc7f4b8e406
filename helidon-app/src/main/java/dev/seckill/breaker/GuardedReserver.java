package dev.seckill.breaker;

import dev.seckill.purchase.PurchaseOutcome;
import dev.seckill.purchase.StockReserver;
import dev.seckill.sale.Sale;

/**
 * The stock reserver behind the Kafka and Redis breakers. Kafka's is consulted first: a purchase that could not be
 * published must not take a unit, so while Kafka is known down nothing is reserved and nothing is left to give
 * back. Its permit is kept only by a reservation (whose send then records the outcome, see
 * {@link dev.seckill.purchase.OrderPublisher}); any other answer gives it back.
 */
public final class GuardedReserver implements StockReserver {

    private final StockReserver reserver;
    private final ShardBreakers redis;
    private final Breaker kafka;

    /** @param redis one breaker per shard: a shard's failures refuse all of its sales, and only them */
    public GuardedReserver(StockReserver reserver, ShardBreakers redis, Breaker kafka) {
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
}
