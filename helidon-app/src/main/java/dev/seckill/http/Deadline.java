package dev.seckill.http;

import dev.seckill.failure.DependencyUnavailable;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The time a request has left to be answered. The edge carries the service's share of the one deadline setting
 * ({@code SECKILL_DEADLINE_MS}, docs/configuration.md) in {@value #HEADER_NAME}, replacing any a client sent; a
 * request without it (to the service's own port, from inside) has no deadline beyond its dependencies' timeouts.
 * The work that needs Redis, Kafka or the database runs under it ({@link #await}): past it the answer is 503
 * {@code UNAVAILABLE} with {@code Retry-After}, and the work goes on to its end, settling what it took as it would
 * after any failed call (a unit kept for its order is resent; docs/failures.md).
 */
public final class Deadline {

    public static final String HEADER_NAME = "X-Seckill-Budget-Ms";
    public static final HeaderName HEADER = HeaderNames.create(HEADER_NAME);
    /** No budget above this is believed: a minute is past any client's patience. */
    static final long MAX_MILLIS = 60_000;
    private static final Pattern MILLIS = Pattern.compile("[1-9][0-9]{0,5}");
    private static final Logger LOG = LoggerFactory.getLogger(Deadline.class);

    /** No deadline: {@link #await} runs the work on the caller's thread. */
    public static final Deadline NONE = new Deadline(0, 0);

    private final long budgetMillis;
    private final long endNanos;

    private Deadline(long budgetMillis, long endNanos) {
        this.budgetMillis = budgetMillis;
        this.endNanos = endNanos;
    }

    /** {@code budget} from now. */
    public static Deadline in(Duration budget) {
        long millis = Math.min(MAX_MILLIS, Math.max(1, budget.toMillis()));
        return new Deadline(millis, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /**
     * The request's deadline, counted from now (the edge's budget leaves room for the hops around this one):
     * {@link #NONE} when the header is absent or not a number of milliseconds from 1 to {@value #MAX_MILLIS}.
     */
    public static Deadline of(ServerRequest req) {
        return req.context().get(Deadline.class, Deadline.class).orElseGet(() -> {
            Deadline d = req.headers().first(HEADER)
                    .filter(v -> MILLIS.matcher(v).matches() && Long.parseLong(v) <= MAX_MILLIS)
                    .map(v -> in(Duration.ofMillis(Long.parseLong(v))))
                    .orElse(NONE);
            req.context().register(Deadline.class, d);
            return d;
        });
    }

    public boolean bounded() {
        return budgetMillis > 0;
    }

    /** What is left of the budget, 0 once past it; {@link Long#MAX_VALUE} without a deadline. */
    public long remainingMillis() {
        if (!bounded()) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime()));
    }

    /**
     * The work's result, or its exception, if it ends before the deadline. Past it, {@link DependencyUnavailable}:
     * the work, on a virtual thread of its own, goes on to its end, and what it decided then is logged.
     *
     * @param what what the work is, for the log ("purchase of sale 7")
     */
    public <T> T await(String what, Supplier<T> work) {
        if (!bounded()) {
            return work.get();
        }
        long left = remainingMillis();
        if (left == 0) {
            throw late(what);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofVirtual().name("seckill-deadline").start(() -> {
            try {
                result.complete(work.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(left, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            result.whenComplete((outcome, failure) -> LOG.atInfo().log(() -> what
                    + " went past its deadline, then ended: " + (failure == null ? outcome : failure)));
            throw late(what);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DependencyUnavailable("interrupted while waiting for the " + what);
        }
    }

    private DependencyUnavailable late(String what) {
        return new DependencyUnavailable("the " + what + " was not decided within its deadline (" + budgetMillis
                + " ms)");
    }

    @Override
    public String toString() {
        return bounded() ? budgetMillis + " ms" : "none";
    }
}
