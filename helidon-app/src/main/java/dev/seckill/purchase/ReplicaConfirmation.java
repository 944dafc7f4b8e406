package dev.seckill.purchase;

import dev.seckill.failure.DependencyUnavailable;
import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import org.redisson.client.RedisException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * With {@link ReplicaAcks} wanted ({@code redis.replica-acks} > 0), a reservation stands only once enough replicas
 * hold it: one confirm.lua call for every reservation of a purchase.lua call, then one WAIT on the same connection
 * (WAIT counts only its own connection's writes). Each reservation that is gone from its master or short of replicas
 * fails alone, as {@link ReservationNotReplicated}, and its purchase gives the unit back. An ALREADY_PURCHASED that
 * names an order still being decided waits for the decision ({@link #standing}).
 */
final class ReplicaConfirmation {

    /** Past the replica timeout, the time an order's own purchase is given to settle it (give its unit back). */
    static final Duration DECISION_MARGIN = Duration.ofSeconds(1);

    /** confirm.lua on a sale's master with these arguments, then WAIT on the same connection. */
    @FunctionalInterface
    interface Confirm {
        Synced call(long saleId, Object... args);
    }

    private final Confirm confirm;
    private final ReplicaAcks acks;

    ReplicaConfirmation(ScriptRunner scripts, ReplicaAcks acks) {
        this((saleId, args) -> scripts.listSynced(Script.CONFIRM, Keys.confirm(saleId), acks, args), acks);
    }

    ReplicaConfirmation(Confirm confirm, ReplicaAcks acks) {
        this.confirm = confirm;
        this.acks = acks;
    }

    /**
     * The decisions of a call with each reservation that did not reach its replicas replaced by its failure. Only a
     * reservation needs its replicas: a refusal wrote nothing a failover could turn into a second sale (at most the
     * limiter's bucket forgets a token), so it answers without waiting for any. A RESEND is queued under the earlier
     * order's id: that is the reservation confirmed.
     */
    List<Decision> confirmed(long saleId, List<Attempt> attempts, List<Decision> decisions) {
        if (!acks.wanted()) {
            return decisions;
        }
        List<Integer> reserved = new ArrayList<>();
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < decisions.size(); i++) {
            if (decisions.get(i).outcome() instanceof PurchaseOutcome.Queued q) {
                reserved.add(i);
                args.add(Long.toString(attempts.get(i).userId()));
                args.add(q.orderId());
            }
        }
        if (reserved.isEmpty()) {
            return decisions;
        }
        List<Decision> confirmed = new ArrayList<>(decisions);
        Synced synced;
        try {
            synced = confirm.call(saleId, Fence.confirmArgs(attempts, args));
        } catch (RedisException e) {
            // The reservations may stand on the master alone: the callers give them back like any unconfirmed one.
            for (int i : reserved) {
                confirmed.set(i, Decision.failed(new ReservationNotReplicated(saleId, orderId(decisions.get(i)),
                        "its confirmation failed: " + e.getMessage())));
            }
            return confirmed;
        }
        for (int k = 0; k < reserved.size(); k++) {
            int i = reserved.get(k);
            try {
                requireReplicated(saleId, orderId(decisions.get(i)), synced.replies().get(k), synced.replicas(), acks);
            } catch (ReservationNotReplicated e) {
                confirmed.set(i, Decision.failed(e));
            }
        }
        return confirmed;
    }

    /**
     * An ALREADY_PURCHASED names an order only once that order's reservation stands. Its own purchase (an earlier
     * click, perhaps on the other instance) decides that within the replica timeout, and gives the unit back when too
     * few replicas hold it: a mark read before then may name an order that never exists. So an order younger than
     * the timeout plus {@link #DECISION_MARGIN} is waited out, then confirmed as a reservation is (confirm.lua and
     * WAIT). Still the buyer's and on its replicas, it is named; otherwise this attempt is undecided (503: retry).
     */
    PurchaseOutcome standing(long saleId, long userId, PurchaseOutcome.AlreadyPurchased already, long nowMillis) {
        if (!acks.wanted()) {
            return already;
        }
        long order = Long.parseLong(already.orderId());
        long window = acks.timeout().plus(DECISION_MARGIN).toMillis();
        long decided = OrderIds.createdAt(order).toEpochMilli() + window;
        if (decided <= nowMillis) {
            return already;
        }
        try {
            // At most the window: an id from a clock ahead of this one is waited out no longer than a fresh one.
            Thread.sleep(Math.min(decided - nowMillis, window));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DependencyUnavailable("interrupted while order " + order + " of sale " + saleId
                    + " was being decided", e);
        }
        Synced synced;
        try {
            synced = confirm.call(saleId, Long.toString(decided), Long.toString(Fence.KEPT.toMillis()),
                    Long.toString(userId), already.orderId());
        } catch (RedisException e) {
            throw new DependencyUnavailable("failed to confirm order " + order + " of sale " + saleId, e);
        }
        if (!stands(synced)) {
            throw new DependencyUnavailable("order " + order + " of sale " + saleId + " does not stand (its purchase "
                    + "gave the unit back, or its replicas lag)");
        }
        return already;
    }

    /** confirm.lua found the one order it was asked about, and enough replicas hold it. */
    private boolean stands(Synced synced) {
        return synced.replies().getFirst() == 1 && acks.satisfiedBy(synced.replicas());
    }

    private static long orderId(Decision reserved) {
        return Long.parseLong(((PurchaseOutcome.Queued) reserved.outcome()).orderId());
    }

    /** A reservation stands once it is still on its master (confirm.lua 1) and enough replicas hold it. */
    static void requireReplicated(long saleId, long orderId, long stillThere, int replicas, ReplicaAcks acks) {
        if (stillThere != 1) {
            throw new ReservationNotReplicated(saleId, orderId, "it is gone from its master (a failover lost it)");
        }
        if (!acks.satisfiedBy(replicas)) {
            throw new ReservationNotReplicated(saleId, orderId, "it reached " + replicas + " of the "
                    + acks.required() + " replicas it needs in time");
        }
    }
}
