package dev.seckill.line;

import dev.seckill.redis.Keys;
import dev.seckill.redis.Script;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;

import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * The sales' lines in Redis: a join is one line_join.lua call; the progress is one line_advance.lua call per sale
 * and interval on this instance (every caller within the interval gets that answer), plus, once the stock is gone,
 * one read of the sale's paid orders (whose units never come back). The advance itself runs at most once per
 * interval across all instances (the script checks), so several instances only read more often, never admit faster.
 */
public final class Lines {

    /** A stale answer is refreshed sooner than the interval when a check needs it (a buyer just admitted). */
    static final long FRESH_MS = 100;

    /** A join's answer: the place, and its 0-based rank among the pre-queue once drawn ({@code -1} before). */
    public record Joined(String orderId, boolean prequeue, long value, long rank) {
    }

    private record Cached(LineProgress progress, long readAt) {
    }

    private final ScriptRunner scripts;
    private final LineSettings settings;
    private final LongUnaryOperator paidOrders;
    private final Clock clock;
    private final ConcurrentMap<Long, Cached> cache = new ConcurrentHashMap<>();
    private final LineMetrics metrics;

    /** @param paidOrders a sale's paid orders (its unit is final); may throw, then none is counted as paid */
    public Lines(ScriptRunner scripts, LineSettings settings, LongUnaryOperator paidOrders, Clock clock,
                 MeterRegistry registry) {
        this.scripts = scripts;
        this.settings = settings;
        this.paidOrders = paidOrders;
        this.clock = clock;
        this.metrics = new LineMetrics(registry);
    }

    /** One buyer joins the sale's line (or finds their place); the pre-queue while {@code beforeStart}. */
    public Joined join(Sale sale, long userId, boolean beforeStart) {
        long random = ThreadLocalRandom.current().nextLong(LineProgress.ALL);
        List<Object> r = scripts.list(Script.LINE_JOIN, Keys.lineJoin(sale.id()), Long.toString(userId),
                Long.toString(random), beforeStart ? "1" : "0");
        metrics.joined();
        String kind = (String) r.get(0);
        if (kind.equals("bought")) {
            return new Joined((String) r.get(1), false, 0, -1);
        }
        return new Joined(null, kind.equals("p"), Long.parseLong((String) r.get(1)), ((Number) r.get(2)).longValue());
    }

    /** The sale's line as of at most one interval ago (advanced first when due). */
    public LineProgress progress(Sale sale) {
        return progress(sale, settings.interval().toMillis());
    }

    /** As {@link #progress(Sale)}, but at most {@link #FRESH_MS} old. */
    public LineProgress fresh(Sale sale) {
        return progress(sale, FRESH_MS);
    }

    private LineProgress progress(Sale sale, long maxAgeMs) {
        long now = clock.millis();
        Cached c = cache.get(sale.id());
        if (c != null && now - c.readAt() < maxAgeMs) {
            return c.progress();
        }
        WaitingRoom room = sale.waitingRoom();
        List<Object> r = scripts.list(Script.LINE_ADVANCE, Keys.lineAdvance(sale.id()), Long.toString(now),
                Long.toString(sale.startsAt().toEpochMilli()), Long.toString(room.admission().toMillis()),
                Integer.toString(room.admitPerSecond() == null ? 0 : room.admitPerSecond()),
                Integer.toString(settings.window()), Long.toString(settings.interval().toMillis()));
        long remaining = ((Number) r.get(6)).longValue();
        LineProgress p = LineProgress.of(r, remaining == 0 ? paid(sale.id()) : 0);
        cache.put(sale.id(), new Cached(p, now));
        metrics.read(sale.id(), p, now);
        return p;
    }

    private long paid(long saleId) {
        try {
            return paidOrders.applyAsLong(saleId);
        } catch (RuntimeException e) {
            // Unknown: every sold unit may still come back, so the line stays a waitlist rather than ending early.
            return 0;
        }
    }

    public LineSettings settings() {
        return settings;
    }
}
