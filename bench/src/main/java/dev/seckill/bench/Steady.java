package dev.seckill.bench;

import org.HdrHistogram.Histogram;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;

/**
 * A fixed-length {@link LoadClient} script for the ceilings and the flood levels: sends the i-th request of
 * {@code requests} (i = 0, 1, 2 ...) until the deadline and measures the answers: count by status, latency in an
 * HdrHistogram (microseconds). Given a list, a request whose tag is a user id (Long) is also kept there as an
 * {@link Attempt}, so its 202s can be checked. A warm one ({@link #warm}) sends from its first connection on but
 * records nothing until {@link #window} opens its measurement, so that many connections can be opened and kept busy
 * (an edge cuts a connection that sends nothing for its header timeout) before the measured window begins; it tells
 * each connection established to a listener.
 */
final class Steady implements LoadClient.Script {

    private final IntFunction<LoadClient.Request> requests;
    // Set by window() on another thread for a warm script; read on the client's thread. Until then, Long.MAX_VALUE:
    // sending never ends and no request counts (none starts at or after t0).
    private volatile long deadline = Long.MAX_VALUE;
    private volatile long t0 = Long.MAX_VALUE;
    private final List<Attempt> attempts;
    private final LongConsumer connected;
    private final Histogram latencyMicros = new Histogram(60_000_000L, 3);
    private final Map<String, Histogram> latencyByStatus = new TreeMap<>();
    private final Map<String, Long> byStatus = new TreeMap<>();
    private final Map<String, Long> byKind = new TreeMap<>();
    // Connections paused by the edge's refusal, as the times they may send again (FIFO: every pause is the edge's
    // Retry-After from an answer that came later than the one before); null: a refusal pauses nothing.
    private ArrayDeque<Long> pausedUntil;
    private int connections;
    private int sent;
    private long answeredAll;
    private long answered;
    private long lastEnd;

    Steady(IntFunction<LoadClient.Request> requests, long t0, long deadline, List<Attempt> attempts) {
        this.requests = requests;
        this.attempts = attempts;
        this.connected = total -> { };
        window(t0, deadline);
    }

    private Steady(IntFunction<LoadClient.Request> requests, LongConsumer connected) {
        this.requests = requests;
        this.attempts = null;
        this.connected = connected;
    }

    /**
     * A script that sends at once and counts nothing until {@link #window}; {@code connected} hears the connections
     * established so far.
     */
    static Steady warm(IntFunction<LoadClient.Request> requests, LongConsumer connected) {
        return new Steady(requests, connected);
    }

    /**
     * The measured window: requests sent from {@code t0} (System.nanoTime()) count, and none is sent from
     * {@code deadline} on.
     */
    void window(long t0, long deadline) {
        this.deadline = deadline;
        this.t0 = t0;
    }

    /**
     * From now on a connection whose request the edge refused ({@code 429} it wrote itself) waits the answer's
     * {@code Retry-After} before it sends again, as a client honouring it does: the edge's admission then sheds the
     * load it cannot take instead of answering a loop of refusals, and a ceiling counts what was admitted.
     * {@code connections}: the run's, so that at most that many minus the paused ones are in flight.
     */
    Steady honouringRetryAfter(int connections) {
        this.pausedUntil = new ArrayDeque<>();
        this.connections = connections;
        return this;
    }

    @Override
    public LoadClient.Request next() {
        long now = System.nanoTime();
        if (now >= deadline) {
            return null;
        }
        if (pausedUntil != null) {
            while (!pausedUntil.isEmpty() && pausedUntil.peekFirst() <= now) {
                pausedUntil.pollFirst();
            }
            if (sent - answeredAll + pausedUntil.size() >= connections) {
                return null;
            }
        }
        return requests.apply(sent++);
    }

    @Override
    public boolean finished() {
        return System.nanoTime() >= deadline;
    }

    @Override
    public void connected(long total) {
        connected.accept(total);
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        answeredAll++;
        int status = answer.status();
        if (pausedUntil != null && status == 429 && answer.byEdge()) {
            pausedUntil.addLast(end + RetryAfter.nanos(answer));
        }
        if (start < t0) {
            return;
        }
        answered++;
        lastEnd = Math.max(lastEnd, end);
        String key = Integer.toString(status);
        byStatus.merge(key, 1L, Long::sum);
        String kind = answer.kind();
        byKind.merge(kind, 1L, Long::sum);
        long micros = Math.min(latencyMicros.getHighestTrackableValue(), Math.max(1, (end - start) / 1000));
        latencyMicros.recordValue(micros);
        latencyByStatus.computeIfAbsent(key, k -> new Histogram(latencyMicros.getHighestTrackableValue(), 3))
                .recordValue(micros);
        if (attempts != null && request.tag() instanceof Long userId) {
            attempts.add(new Attempt(userId, start - t0, end - start, status,
                    status == 0 ? "NO_ANSWER" : answer.code(), Bodies.field(answer.body(), "orderId"), answer.byEdge()));
        }
    }

    /** The latency of every answer so far, in microseconds. */
    Histogram histogram() {
        return latencyMicros.copy();
    }

    /** The latency of the answers of one status so far, in microseconds (empty when there was none). */
    Histogram histogram(int status) {
        Histogram h = latencyByStatus.get(Integer.toString(status));
        return h == null ? new Histogram(latencyMicros.getHighestTrackableValue(), 3) : h.copy();
    }

    /** The measured result of the run. */
    Measured result(String name) {
        double seconds = Math.max(1e-9, (lastEnd - t0) / 1e9);
        return new Measured(name, "bench client", answered, seconds, answered / seconds, byStatus, byKind,
                Measured.Latency.of(latencyMicros), null);
    }
}
