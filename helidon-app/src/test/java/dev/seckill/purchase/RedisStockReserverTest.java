package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.SyncedReply;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;
import org.redisson.api.BatchResult;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * purchase.lua's replies mapped to outcomes: the one mapping, every code (the script itself: ScriptsIT), and the
 * replica count a reservation needs (issue 13).
 */
class RedisStockReserverTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static final ReplicaAcks ONE_REPLICA = new ReplicaAcks(1, Duration.ofMillis(250));

    private static PurchaseOutcome reply(long code, Object data) {
        return RedisStockReserver.outcome(SALE, 900, List.of(code, data));
    }

    /** The reply of the script run as a batch with WAIT, as Redisson hands it back. */
    private static PurchaseOutcome synced(long code, Object data, int replicasAcked) {
        BatchResult<?> batch = new BatchResult<>(List.of(List.of(code, data)), replicasAcked);
        return RedisStockReserver.confirmed(SALE, 900, SyncedReply.of(batch), ONE_REPLICA);
    }

    @Test
    void everyCodeOfTheScriptMapsToItsOutcome() {
        assertEquals(new PurchaseOutcome.Queued("900"), reply(0, 4L));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("800"), reply(1, "800"));
        assertEquals(new PurchaseOutcome.SoldOut(false), reply(2, 0L));
        assertEquals(new PurchaseOutcome.NotStarted(SALE.startsAt(), 1500), reply(3, 1500L));
        assertEquals(new PurchaseOutcome.SaleEnded(), reply(4, 0L));
        assertEquals(new PurchaseOutcome.RateLimited(250), reply(5, 250L));
    }

    @Test
    void theBuyersOwnOrderIdIsItsReservationNotAnEarlierPurchase() {
        // A script the client re-sent after its answer was lost finds the mark the first run made.
        assertEquals(new PurchaseOutcome.Queued("900"), reply(1, "900"));
    }

    @Test
    void aReservationNoReplicaConfirmedIsNotQueued() {
        assertThrows(ReservationNotReplicated.class, () -> synced(0, 4L, 0));
    }

    @Test
    void aReservationEnoughReplicasConfirmedIsQueued() {
        assertEquals(new PurchaseOutcome.Queued("900"), synced(0, 4L, 1));
        assertEquals(new PurchaseOutcome.Queued("900"), synced(0, 4L, 2));
    }

    @Test
    void aRefusalNeedsNoReplica() {
        assertEquals(new PurchaseOutcome.SoldOut(false), synced(2, 0L, 0));
        assertEquals(new PurchaseOutcome.RateLimited(250), synced(5, 250L, 0));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("800"), synced(1, "800", 0));
    }

    @Test
    void missingKeysAreUnavailableNeverSoldOut() {
        assertThrows(DependencyUnavailable.class, () -> reply(-1, 0L));
    }

    @Test
    void anUnknownCodeIsABug() {
        assertThrows(IllegalStateException.class, () -> reply(9, 0L));
    }
}
