package dev.seckill.purchase;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Coalesces the attempts of one sale: at most one decision call per sale is in flight, and the attempts that arrive
 * meanwhile go together, in arrival order, into the next call (at most {@code max} per call). An attempt for a sale
 * with nothing in flight is decided at once, alone, on its own thread: no added latency when the load is low.
 *
 * <p>No thread of its own: the caller whose call returns hands the next batch to the first attempt queued in it,
 * whose (virtual) thread wakes up and makes the call, then answers every attempt of its batch; the others only block
 * on a future. A call that fails fails every attempt of its batch with the same exception.
 *
 * <p>{@code max} 1 turns it off: every attempt is its own call, and calls of one sale run side by side.
 * One lane per sale that ever had an attempt; a lane is a few objects and sales are few, so lanes are never dropped.
 *
 * @param <A> one attempt
 * @param <R> the decision of one attempt
 */
public final class SaleBatches<A, R> {

    private final int max;
    private final Function<List<A>, List<R>> decider;
    private final IntConsumer sizes;
    private final Map<Long, Lane<A, R>> lanes = new ConcurrentHashMap<>();

    /**
     * @param max     most attempts per call (1: no coalescing)
     * @param decider decides a batch of attempts of one sale in one call: one decision per attempt, in order
     * @param sizes   told the size of every batch decided (a metric)
     */
    public SaleBatches(int max, Function<List<A>, List<R>> decider, IntConsumer sizes) {
        if (max < 1) {
            throw new IllegalArgumentException("redis.coalesce-max must be 1 or more, not " + max);
        }
        this.max = max;
        this.decider = decider;
        this.sizes = sizes;
    }

    /** Decides {@code attempt} of sale {@code saleId}, alone or with others, and returns its decision. */
    public R decide(long saleId, A attempt) {
        if (max == 1) {
            return decideAll(List.of(attempt)).getFirst();
        }
        Lane<A, R> lane = lanes.computeIfAbsent(saleId, id -> new Lane<>());
        Waiter<A, R> me = new Waiter<>(attempt);
        List<Waiter<A, R>> batch = lane.join(me);
        if (batch == null) {
            batch = me.woken.join();
            if (batch == null) {
                return me.answer();
            }
        }
        lead(lane, batch);
        return me.answer();
    }

    /** Attempts of a sale queued for its next call (not the one in flight). */
    int waiting(long saleId) {
        Lane<A, R> lane = lanes.get(saleId);
        return lane == null ? 0 : lane.waiting();
    }

    /** Makes the batch's call, hands the next batch on, then answers this one's attempts. */
    private void lead(Lane<A, R> lane, List<Waiter<A, R>> batch) {
        List<R> decisions = null;
        RuntimeException failure = null;
        Error fatal = null;
        try {
            decisions = decideAll(batch.stream().map(w -> w.attempt).toList());
        } catch (RuntimeException e) {
            failure = e;
        } catch (Error e) {
            fatal = e;
            failure = new IllegalStateException("a batch of purchases failed: " + e, e);
        } finally {
            // The next batch is handed on before this one is answered: the waiting attempts' call does not wait for
            // the answering, and a failed call still frees the lane.
            List<Waiter<A, R>> next = lane.next(max);
            if (next != null) {
                next.getFirst().woken.complete(next);
            }
        }
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).finish(decisions == null ? null : decisions.get(i), failure);
        }
        if (fatal != null) {
            throw fatal;
        }
    }

    private List<R> decideAll(List<A> attempts) {
        sizes.accept(attempts.size());
        List<R> decisions = decider.apply(attempts);
        if (decisions.size() != attempts.size()) {
            throw new IllegalStateException(decisions.size() + " decisions for " + attempts.size() + " attempts");
        }
        return decisions;
    }

    /** One sale's queue: whether a call is in flight, and the attempts waiting for the next one. */
    private static final class Lane<A, R> {

        private final ReentrantLock lock = new ReentrantLock();
        private final ArrayDeque<Waiter<A, R>> queue = new ArrayDeque<>();
        private boolean busy;

        /** The batch to decide now ({@code w} alone) when nothing is in flight, else null ({@code w} waits). */
        List<Waiter<A, R>> join(Waiter<A, R> w) {
            lock.lock();
            try {
                if (busy) {
                    queue.addLast(w);
                    return null;
                }
                busy = true;
                return List.of(w);
            } finally {
                lock.unlock();
            }
        }

        int waiting() {
            lock.lock();
            try {
                return queue.size();
            } finally {
                lock.unlock();
            }
        }

        /** The next batch, oldest first (the lane stays busy), or null when none waits (the lane is idle). */
        List<Waiter<A, R>> next(int max) {
            lock.lock();
            try {
                if (queue.isEmpty()) {
                    busy = false;
                    return null;
                }
                List<Waiter<A, R>> batch = new ArrayList<>(Math.min(max, queue.size()));
                while (batch.size() < max && !queue.isEmpty()) {
                    batch.add(queue.pollFirst());
                }
                return batch;
            } finally {
                lock.unlock();
            }
        }
    }

    /** One attempt waiting: woken with the batch it is to lead, or with null once its decision is in. */
    private static final class Waiter<A, R> {

        final A attempt;
        final CompletableFuture<List<Waiter<A, R>>> woken = new CompletableFuture<>();
        private R decision;
        private RuntimeException failure;

        Waiter(A attempt) {
            this.attempt = attempt;
        }

        /** Sets the decision (or the batch's failure) and wakes the attempt if it waits; the future publishes both. */
        void finish(R decision, RuntimeException failure) {
            this.decision = decision;
            this.failure = failure;
            woken.complete(null);
        }

        R answer() {
            if (failure != null) {
                throw failure;
            }
            return decision;
        }
    }
}
