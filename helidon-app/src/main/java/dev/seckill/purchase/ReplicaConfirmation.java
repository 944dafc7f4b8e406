package dev.seckill.purchase;

import dev.seckill.redis.Keys;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.redis.Synced;
import org.redisson.client.RedisException;

import java.util.ArrayList;
import java.util.List;

/**
 * With {@link ReplicaAcks} wanted ({@code redis.replica-acks} > 0), a reservation stands only once enough replicas
 * hold it: one confirm.lua call for every reservation of a purchase.lua call, then one WAIT on the same connection
 * (WAIT counts only its own connection's writes). Each reservation that is gone from its master or short of replicas
 * fails alone, as {@link ReservationNotReplicated}, and its purchase gives the unit back.
 */
final class ReplicaConfirmation {

    private final ScriptRunner scripts;
    private final ReplicaAcks acks;

    ReplicaConfirmation(ScriptRunner scripts, ReplicaAcks acks) {
        this.scripts = scripts;
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
            synced = scripts.listSynced(Script.CONFIRM, Keys.confirm(saleId), acks, Fence.confirmArgs(attempts, args));
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
