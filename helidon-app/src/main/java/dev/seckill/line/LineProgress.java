package dev.seckill.line;

import java.util.ArrayList;
import java.util.List;

/**
 * A sale's line as line_advance.lua left it, at {@code at} (epoch ms), with what the database adds once the stock is
 * gone: how many sold units may still come back. Every place and every admission follows from it and a ticket, so
 * the edge, which learns it once per interval, answers a buyer's poll without asking anyone (the same rules in
 * openresty/lua/seckill/line.lua).
 *
 * @param prequeue    buyers in the pre-queue (so far, before the draw)
 * @param joinedAfter buyers who joined after the draw
 * @param admitted    buyers admitted so far, in line order
 * @param cut         the random number of the last pre-queue buyer admitted ({@link #ALL} once every one is; -1 none)
 * @param remaining   units left in Redis (-1: the sale is not in Redis)
 * @param used        admissions used: buyers holding an order (a unit given back later included)
 * @param mayReturn   sold units whose unpaid orders may still lapse and give them back
 * @param soldOutAt   when the stock last ran out (epoch ms, 0: never)
 * @param steps       when the line admitted up to where, oldest first (the older ones trimmed)
 */
public record LineProgress(long at, boolean drawn, long prequeue, long joinedAfter, long admitted, long cut,
                           long remaining, long used, long lapsed, long mayReturn, long soldOutAt, List<Step> steps) {

    /** The cut once every pre-queue buyer is admitted: above any random number a pre-queue place can have. */
    public static final long ALL = 1L << 52;

    /** The line admitted up to {@code admitted} (and pre-queue randoms up to {@code cut}) at {@code ms}. */
    public record Step(long ms, long admitted, long cut) {

        static Step parse(String s) {
            String[] p = s.split(":");
            return new Step(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]));
        }
    }

    /** From line_advance.lua's answer; {@code paid}: the sale's paid orders, whose units never come back. */
    static LineProgress of(List<Object> r, long paid) {
        List<Step> steps = new ArrayList<>();
        for (int i = 11; i < r.size(); i++) {
            steps.add(Step.parse((String) r.get(i)));
        }
        long used = n(r, 7);
        long returned = n(r, 8);
        return new LineProgress(n(r, 0), n(r, 1) == 1, n(r, 2), n(r, 3), n(r, 4), n(r, 5), n(r, 6), used, n(r, 9),
                Math.max(0, used - returned - paid), n(r, 10), List.copyOf(steps));
    }

    private static long n(List<Object> r, int i) {
        return ((Number) r.get(i)).longValue();
    }

    public long total() {
        return prequeue + joinedAfter;
    }

    /** Whether the ticket's place has been admitted (ever: the admission may since have lapsed). */
    public boolean admitted(LineTicket t) {
        if (!drawn) {
            return false;
        }
        return t.prequeue() ? admitted >= prequeue || t.value() <= cut : admitted >= prequeue + t.value();
    }

    /** When the ticket's place was admitted (epoch ms), or -1 when the line has not admitted it. */
    public long admittedAt(LineTicket t) {
        if (!admitted(t)) {
            return -1;
        }
        for (Step s : steps) {
            if (t.prequeue() ? s.admitted() >= prequeue || t.value() <= s.cut() : s.admitted() >= prequeue + t.value()) {
                return s.ms();
            }
        }
        // Admitted before every step kept: at or before the oldest, which is past the admission time.
        return steps.isEmpty() ? 0 : steps.getFirst().ms();
    }

    /**
     * The ticket's place in line from 1 (pre-queue places: estimated from the random number, the pre-queue being
     * a uniform shuffle), or null before the draw.
     */
    public Long position(LineTicket t) {
        if (!drawn) {
            return null;
        }
        if (!t.prequeue()) {
            return prequeue + t.value();
        }
        long estimate = Math.max(1, Math.min(prequeue, (long) Math.ceil((double) t.value() / ALL * prequeue)));
        // Not admitted yet: behind everyone admitted, whatever the estimate says.
        return t.value() > cut && admitted < prequeue ? Math.max(estimate, admitted + 1) : estimate;
    }

    /** Admissions a second over the last ten seconds (since the first step kept, when that is later; 0: none). */
    public double rate(long now) {
        if (steps.isEmpty()) {
            return 0;
        }
        long since = now - 10_000;
        long base = -1;
        for (Step s : steps) {
            if (s.ms() <= since) {
                base = s.admitted();
            }
        }
        return base >= 0 ? (admitted - base) / 10.0
                : admitted * 1000.0 / Math.max(1000, now - steps.getFirst().ms());
    }
}
