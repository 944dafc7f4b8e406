package dev.seckill.line;

import java.util.ArrayList;
import java.util.List;

/**
 * A sale's line as line_advance.lua left it, at {@code at} (epoch ms), with what the database adds once the stock is
 * gone: how many sold units may still come back. Every place and every admission follows from it and a ticket
 * (standing.lua), so the edge, which learns it once per interval, answers a buyer's poll without asking anyone.
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
