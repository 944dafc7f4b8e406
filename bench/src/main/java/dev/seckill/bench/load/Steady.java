package dev.seckill.bench.load;

import dev.seckill.bench.measure.Measured;
import org.HdrHistogram.Histogram;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * A {@link LoadClient} script for the ceilings: sends request i = 0, 1, 2 ... until the deadline and counts the
 * answers by status and by {@link Answer#kind}, timed in an HdrHistogram (µs). Given a list, each answer to a request
 * tagged with a user id (Long) is kept there as an {@link AnsweredClick}.
 */
public final class Steady implements LoadClient.Script {

    private final IntFunction<LoadClient.Request> requests;
    private final List<AnsweredClick> attempts;
    private final Histogram latency = Measured.histogram();
    private final Map<String, Long> byStatus = new TreeMap<>();
    private final Map<String, Long> byKind = new TreeMap<>();
    private final long t0;
    private final long deadline;
    // When the connections the edge refused may send again (in order: each waits whole seconds from a later answer).
    private ArrayDeque<Long> pausedUntil;
    private int connections;
    private int sent;
    private long answered;
    private long lastEnd;

    public Steady(IntFunction<LoadClient.Request> requests, long t0, long deadline, List<AnsweredClick> attempts) {
        this.requests = requests;
        this.attempts = attempts;
        this.t0 = t0;
        this.deadline = deadline;
    }

    /**
     * From now on a connection the edge refused (its own 429) waits the answer's Retry-After before it sends again,
     * so that a ceiling counts what the edge admitted; at most {@code connections} less the paused are in flight.
     */
    public Steady honouringRetryAfter(int connections) {
        this.pausedUntil = new ArrayDeque<>();
        this.connections = connections;
        return this;
    }

    @Override
    public LoadClient.Request next() {
        long now = System.nanoTime();
        while (pausedUntil != null && !pausedUntil.isEmpty() && pausedUntil.peekFirst() <= now) {
            pausedUntil.pollFirst();
        }
        boolean paused = pausedUntil != null && sent - answered + pausedUntil.size() >= connections;
        return now >= deadline || paused ? null : requests.apply(sent++);
    }

    @Override
    public boolean finished() {
        return System.nanoTime() >= deadline;
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        answered++;
        if (pausedUntil != null && answer.status() == 429 && answer.byEdge()) {
            pausedUntil.addLast(end + answer.retryAfterNanos());
        }
        if (start >= t0) {
            lastEnd = Math.max(lastEnd, end);
            byKind.merge(answer.kind(), 1L, Long::sum);
            byStatus.merge(Integer.toString(answer.status()), 1L, Long::sum);
            Measured.record(latency, end - start);
            if (attempts != null && request.tag() instanceof Long userId) {
                attempts.add(answer.attempt(userId, start - t0, end - start));
            }
        }
    }

    public Measured result(String name) {
        double seconds = Math.max(1e-9, (lastEnd - t0) / 1e9);
        long n = latency.getTotalCount();
        Measured.Latency l = Measured.Latency.of(latency);
        return new Measured(name, "bench client", n, seconds, n / seconds, byStatus, byKind, l, null);
    }
}
