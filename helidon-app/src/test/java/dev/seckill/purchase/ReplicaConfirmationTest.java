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

    /** The moment an order minted at {@code createdAt} is decided by its own purchase. */
    private static long decidedAt(long createdAt) {
        return createdAt + ONE_REPLICA.timeout().plus(ReplicaConfirmation.DECISION_MARGIN).toMillis();
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderPastItsDecisionIsNamedWithoutAskingRedis() {
        long created = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
        PurchaseOutcome.AlreadyPurchased already = new PurchaseOutcome.AlreadyPurchased(orderAt(created));
        // No confirmation at all: a call to Redis would fail the test.
        ReplicaConfirmation replicas = new ReplicaConfirmation((ReplicaConfirmation.Confirm) null, ONE_REPLICA);
        assertSame(already, replicas.standing(SALE.id(), 1, already, decidedAt(created)));
        assertSame(already, new ReplicaConfirmation((ReplicaConfirmation.Confirm) null, ReplicaAcks.none())
                .standing(SALE.id(), 1, already, created));
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderStillBeingDecidedIsNamedOnceItStandsOnItsReplicas() {
        long created = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
        PurchaseOutcome.AlreadyPurchased already = new PurchaseOutcome.AlreadyPurchased(orderAt(created));
        List<List<Object>> asked = new ArrayList<>();
        ReplicaConfirmation replicas = new ReplicaConfirmation((saleId, args) -> {
            asked.add(List.of(args));
            return Synced.of(new BatchResult<>(List.of(List.of(1L)), 1));
        }, ONE_REPLICA);
        // 5 ms before its purchase has decided it: the answer waits for the decision, then asks confirm.lua.
        assertSame(already, replicas.standing(SALE.id(), 1, already, decidedAt(created) - 5));
        assertEquals(List.of(List.of(Long.toString(decidedAt(created)), Long.toString(Fence.KEPT.toMillis()), "1",
                already.orderId())), asked);
    }

    @Test
    void anOrderFromAClockAheadIsWaitedOutNoLongerThanAFreshOne() {
        long created = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
        PurchaseOutcome.AlreadyPurchased already = new PurchaseOutcome.AlreadyPurchased(orderAt(created));
        ReplicaConfirmation replicas = new ReplicaConfirmation(
                (saleId, args) -> Synced.of(new BatchResult<>(List.of(List.of(1L)), 1)), ONE_REPLICA);
        // Minted a day ahead of this clock: unbounded, the wait would be a day (the test's own timeout would end it).
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertSame(already,
                replicas.standing(SALE.id(), 1, already, created - Duration.ofDays(1).toMillis())));
    }

    @Test
    void anAlreadyPurchasedNamingAnOrderItsPurchaseGaveBackIsNoAnswer() {
        long created = Instant.parse("2030-01-01T10:00:00Z").toEpochMilli();
        PurchaseOutcome.AlreadyPurchased already = new PurchaseOutcome.AlreadyPurchased(orderAt(created));
        // The mark is gone (its purchase gave the unit back): confirm.lua answers 0 and fences the order.
        ReplicaConfirmation gone = new ReplicaConfirmation(
                (saleId, args) -> Synced.of(new BatchResult<>(List.of(List.of(0L)), 1)), ONE_REPLICA);
        DependencyUnavailable e = assertThrows(DependencyUnavailable.class,
                () -> gone.standing(SALE.id(), 1, already, decidedAt(created) - 5));
        assertFalse(e instanceof ReservationNotReplicated, "not this attempt's reservation: nothing to give back");
        // Still the buyer's, but on too few replicas yet: no answer either.
        ReplicaConfirmation lagging = new ReplicaConfirmation(
                (saleId, args) -> Synced.of(new BatchResult<>(List.of(List.of(1L)), 0)), ONE_REPLICA);
        assertThrows(DependencyUnavailable.class, () -> lagging.standing(SALE.id(), 1, already,
                decidedAt(created) - 5));
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
