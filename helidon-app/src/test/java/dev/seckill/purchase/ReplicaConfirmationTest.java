package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import dev.seckill.sale.Sale;
import org.junit.jupiter.api.Test;
import org.redisson.api.BatchResult;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replicas a reservation needs before it stands; the WAIT itself: ClusterScriptsIT. */
class ReplicaConfirmationTest {

    private static final Sale SALE = new Sale(7, "s", 100, 5, Instant.parse("2030-01-01T10:00:00Z"),
            Instant.parse("2030-01-01T11:00:00Z"));

    private static final ReplicaAcks ONE_REPLICA = new ReplicaAcks(1, Duration.ofMillis(250));
    /** How much longer than asked a sleep may take here (two shared cores, other builds running). */
    private static final Duration OVERSHOOT = Duration.ofMillis(750);
    /** An earlier click's order, as an ALREADY_PURCHASED names it. */
    private static final long CREATED = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
    private static final PurchaseOutcome.AlreadyPurchased ALREADY = new PurchaseOutcome.AlreadyPurchased(
            orderAt(CREATED));

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
        assertSame(decisions, new ReplicaConfirmation((ScriptRunner) null, ReplicaAcks.none())
                .confirmed(SALE.id(), List.of(attempt, attempt), decisions));
    }

    @Test
    void aCallWithoutAReservationWaitsForNoReplica() {
        List<Decision> refusals = List.of(Decision.of(new PurchaseOutcome.SoldOut(false)),
                Decision.failed(new UnitsHeld(SALE.id(), 1)));
        Attempt attempt = new Attempt(SALE, 1, 900, 0);
        assertSame(refusals, new ReplicaConfirmation((ScriptRunner) null, ONE_REPLICA)
                .confirmed(SALE.id(), List.of(attempt, attempt), refusals));
    }

    /** An order minted at {@code createdAt} (epoch ms), as the service's ids encode it. */
    private static String orderAt(long createdAt) {
        return Long.toString(new OrderIds(Clock.fixed(Instant.ofEpochMilli(createdAt), ZoneOffset.UTC), 1).next());
    }

    /** A confirmation whose confirm.lua answers {@code stillThere} for the one order, and WAIT {@code replicas}. */
    private static ReplicaConfirmation answering(long stillThere, int replicas) {
        return new ReplicaConfirmation((saleId, args) -> Synced.of(new BatchResult<>(List.of(List.of(stillThere)),
                replicas)), ONE_REPLICA);
    }

    /** The moment an order minted at {@code createdAt} is decided by its own purchase. */
    private static long decidedAt(long createdAt) {
        return createdAt + ONE_REPLICA.timeout().plus(ReplicaConfirmation.DECISION_MARGIN).toMillis();
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderPastItsDecisionIsNamedWithoutAskingRedis() {
        // No confirmation at all: a call to Redis would fail the test.
        ReplicaConfirmation replicas = new ReplicaConfirmation((ReplicaConfirmation.Confirm) null, ONE_REPLICA);
        assertSame(ALREADY, replicas.standing(SALE.id(), 1, ALREADY, decidedAt(CREATED)));
        assertSame(ALREADY, new ReplicaConfirmation((ReplicaConfirmation.Confirm) null, ReplicaAcks.none())
                .standing(SALE.id(), 1, ALREADY, CREATED));
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderStillBeingDecidedIsNamedOnceItStandsOnItsReplicas() {
        List<List<Object>> asked = new ArrayList<>();
        ReplicaConfirmation replicas = new ReplicaConfirmation((saleId, args) -> {
            asked.add(List.of(args));
            return Synced.of(new BatchResult<>(List.of(List.of(1L)), 1));
        }, ONE_REPLICA);
        // 5 ms before its purchase has decided it: the answer waits for the decision, then asks confirm.lua.
        assertSame(ALREADY, replicas.standing(SALE.id(), 1, ALREADY, decidedAt(CREATED) - 5));
        assertEquals(List.of(List.of(Long.toString(decidedAt(CREATED)), Long.toString(Fence.KEPT.toMillis()), "1",
                ALREADY.orderId())), asked);
    }

    @Test
    void anOrderFromAClockAheadIsWaitedOutNoLongerThanAFreshOne() {
        ReplicaConfirmation replicas = answering(1, 1);
        // Minted a day ahead of this clock: unbounded, the wait would be a day. A fresh order is waited out for the
        // replica timeout plus the margin (1.25 s), so this one must be too: that long, and no more than a sleep's
        // overshoot on a busy machine longer.
        Duration window = ONE_REPLICA.timeout().plus(ReplicaConfirmation.DECISION_MARGIN);
        long t0 = System.nanoTime();
        assertTimeoutPreemptively(window.plus(OVERSHOOT), () -> assertSame(ALREADY,
                replicas.standing(SALE.id(), 1, ALREADY, CREATED - Duration.ofDays(1).toMillis())));
        Duration waited = Duration.ofNanos(System.nanoTime() - t0);
        assertTrue(waited.compareTo(window) >= 0, "waited " + waited + ", not the whole window " + window);
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderItsPurchaseGaveBackIsNoAnswer() {
        // The mark is gone (its purchase gave the unit back): confirm.lua answers 0 and fences the order.
        ReplicaConfirmation gone = answering(0, 1);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> gone.standing(SALE.id(), 1, ALREADY, decidedAt(CREATED) - 5));
        assertFalse(e instanceof ReservationNotReplicated, "not this attempt's reservation: nothing to give back");
        // Still the buyer's, but on too few replicas yet: no answer either.
        ReplicaConfirmation lagging = answering(1, 0);
        assertThrows(DependencyUnavailable.class, () -> lagging.standing(SALE.id(), 1, ALREADY,
                decidedAt(CREATED) - 5));
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
