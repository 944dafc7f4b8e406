package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Synced;
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

    /** confirm.lua's reply (one reservation) and WAIT's count, run as one batch, as Redisson hands them back. */
    private static void confirmed(long stillThere, int replicasAcked) {
        Synced synced = Synced.of(new BatchResult<>(List.of(List.of(stillThere)), replicasAcked));
        RedisStockReserver.requireReplicated(SALE.id(), 900, synced.replies().getFirst(), synced.replicas(),
                ONE_REPLICA);
    }

    @Test
    void everyCodeOfTheScriptMapsToItsOutcome() {
        assertEquals(new PurchaseOutcome.Queued("900"), reply(0, 4L));
        assertEquals(new PurchaseOutcome.AlreadyPurchased("800"), reply(1, "800"));
        assertEquals(new PurchaseOutcome.SoldOut(false), reply(2, 0L));
        assertEquals(new PurchaseOutcome.NotStarted(SALE.startsAt(), 1500), reply(3, 1500L));
        assertEquals(new PurchaseOutcome.SaleEnded(), reply(4, 0L));
        assertEquals(new PurchaseOutcome.RateLimited(250), reply(5, 250L));
        assertEquals(new PurchaseOutcome.Queued("800"), reply(6, "800"), "RESEND: queued again under the earlier id");
    }

    @Test
    void theBuyersOwnOrderIdIsItsReservationNotAnEarlierPurchase() {
        // A script the client re-sent after its answer was lost finds the mark the first run made.
        assertEquals(new PurchaseOutcome.Queued("900"), reply(1, "900"));
    }

    @Test
    void aReservationNoReplicaConfirmedDoesNotStand() {
        assertThrows(ReservationNotReplicated.class, () -> confirmed(1, 0));
    }

    @Test
    void aReservationEnoughReplicasConfirmedStands() {
        confirmed(1, 1);
        confirmed(1, 2);
    }

    @Test
    void aReservationGoneFromItsMasterDoesNotStandWhateverTheReplicasSay() {
        // A failover between the purchase and its confirmation: the promoted master never had it.
        assertThrows(ReservationNotReplicated.class, () -> confirmed(0, 1));
    }

    @Test
    void missingKeysAreUnavailableNeverSoldOut() {
        assertThrows(DependencyUnavailable.class, () -> reply(-1, 0L));
    }

    @Test
    void noStockButUnitsHeldForResendsIsUnavailableNeverSoldOut() {
        assertThrows(DependencyUnavailable.class, () -> reply(7, 3L));
    }

    @Test
    void anUnknownCodeIsABug() {
        assertThrows(IllegalStateException.class, () -> reply(9, 0L));
    }
}
