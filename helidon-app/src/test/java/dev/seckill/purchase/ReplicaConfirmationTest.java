package dev.seckill.purchase;

import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Synced;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;
import org.redisson.api.BatchResult;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The replicas a reservation needs before it stands; the WAIT itself: ClusterScriptsIT. */
class ReplicaConfirmationTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static final ReplicaAcks ONE_REPLICA = new ReplicaAcks(1, Duration.ofMillis(250));

    /** confirm.lua's reply (one reservation) and WAIT's count, run as one batch, as Redisson hands them back. */
    private static void confirmed(long stillThere, int replicasAcked) {
        Synced synced = Synced.of(new BatchResult<>(List.of(List.of(stillThere)), replicasAcked));
        ReplicaConfirmation.requireReplicated(SALE.id(), 900, synced.replies().getFirst(), synced.replicas(),
                ONE_REPLICA);
    }

    @Test
    void withoutReplicaAcksEveryDecisionStandsAndRedisIsNotAsked() {
        // No ScriptRunner at all: a call to Redis would fail the test.
        List<Decision> decisions = List.of(Decision.of(new PurchaseOutcome.Queued("900")),
                Decision.of(new PurchaseOutcome.SoldOut(false)));
        Attempt attempt = new Attempt(SALE, 1, 900, 0);
        assertSame(decisions, new ReplicaConfirmation(null, ReplicaAcks.none())
                .confirmed(SALE.id(), List.of(attempt, attempt), decisions));
    }

    @Test
    void aCallWithoutAReservationWaitsForNoReplica() {
        List<Decision> refusals = List.of(Decision.of(new PurchaseOutcome.SoldOut(false)),
                Decision.failed(new UnitsHeld(SALE.id(), 1)));
        Attempt attempt = new Attempt(SALE, 1, 900, 0);
        assertSame(refusals, new ReplicaConfirmation(null, ONE_REPLICA)
                .confirmed(SALE.id(), List.of(attempt, attempt), refusals));
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
}
