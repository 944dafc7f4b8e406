package dev.seckill.line;

import dev.seckill.sale.Sale;

import java.time.Instant;

/**
 * Where a ticket's holder stands, from the line's progress alone (no Redis call): the answer to a buyer's poll. The
 * edge answers polls alone, from the progress the service publishes (LineService's progress route): every figure
 * that does not depend on the ticket (the rate, when returned units are due, the polling bounds) is computed here and
 * published in it, so the edge only places the ticket (openresty/lua/seckill/line.lua, docs/waiting-room.md);
 * system-tests' LineAnswersIT compares the edge's answers with the service's field by field on one line.
 */
public sealed interface Standing {

    /**
     * In line. Before the draw {@code position}, {@code ahead} and {@code etaSeconds} are null and {@code drawAt}
     * says when the places are drawn; {@code approximate}: the place is estimated (a pre-queue place), and
     * {@code ahead} is rounded.
     */
    record InLine(Long position, Long ahead, Long etaSeconds, int refreshSeconds, Instant drawAt, boolean approximate)
            implements Standing {
    }

    /** The stock is gone but {@code returning} units may come back by {@code returnBy}: the line waits for them. */
    record Waitlist(Long position, Long ahead, long returning, Instant returnBy, int refreshSeconds,
                    boolean approximate) implements Standing {
    }

    /** The holder may purchase until {@code until}. */
    record Admitted(Instant until) implements Standing {
    }

    /** The holder was admitted and did not buy in time: the unit went to the next in line. */
    record Lapsed() implements Standing {
    }

    record SoldOut() implements Standing {
    }

    record Ended() implements Standing {
    }

    /** The slowest a waiting client is told to poll, and the fastest. */
    int MAX_REFRESH_SECONDS = 10;
    int MIN_REFRESH_SECONDS = 1;
    /** Before the draw a client may poll more slowly, down to twice a minute. */
    int MAX_PREQUEUE_REFRESH_SECONDS = 30;

    /** Where {@code t}'s holder stands at {@code now}, the place estimated from the ticket. */
    static Standing of(Sale sale, LineProgress p, LineTicket t, Instant now) {
        return of(sale, p, t, now, null);
    }

    /** As {@link #of(Sale, LineProgress, LineTicket, Instant)}; {@code exact}: the place when it is known. */
    static Standing of(Sale sale, LineProgress p, LineTicket t, Instant now, Long exact) {
        if (!now.isBefore(sale.endsAt())) {
            return new Ended();
        }
        WaitingRoom room = sale.waitingRoom();
        long admittedAt = p.admittedAt(t);
        boolean stockGone = p.remaining() == 0;
        // When the last unpaid order's window ends (its unit comes back within an expiry interval after that). The
        // line waits as long as any unit may come back, whatever the clock: each is paid or returned in the end.
        Instant returnBy = returnBy(sale, p);
        boolean mayReturn = p.mayReturn() > 0;
        if (admittedAt >= 0) {
            Instant until = Instant.ofEpochMilli(admittedAt).plus(room.admission());
            if (stockGone && !mayReturn) {
                return new SoldOut();
            }
            return now.isBefore(until) ? new Admitted(until) : new Lapsed();
        }
        if (!p.drawn()) {
            long toDraw = Math.max(0, sale.startsAt().getEpochSecond() - now.getEpochSecond());
            return new InLine(null, null, null, clamp(toDraw / 10, MAX_PREQUEUE_REFRESH_SECONDS), sale.startsAt(),
                    t.prequeue());
        }
        if (stockGone) {
            if (!mayReturn) {
                return new SoldOut();
            }
            long position = exact != null ? exact : p.position(t);
            return new Waitlist(position, ahead(p, position, exact == null && t.prequeue()), p.mayReturn(), returnBy,
                    clamp(MAX_REFRESH_SECONDS, maxRefresh(room)), exact == null && t.prequeue());
        }
        long position = exact != null ? exact : p.position(t);
        long ahead = ahead(p, position, exact == null && t.prequeue());
        double rate = rate(room, p);
        Long eta = rate > 0 ? (long) Math.ceil(ahead / rate) : null;
        return new InLine(position, ahead, eta, clamp(eta == null ? 2 : eta / 10, maxRefresh(room)), null,
                exact == null && t.prequeue());
    }

    /** People ahead not yet admitted; an estimated place's count rounded to two significant digits. */
    private static long ahead(LineProgress p, long position, boolean estimated) {
        long ahead = Math.max(0, position - p.admitted() - 1);
        return estimated ? round(ahead) : ahead;
    }

    static long round(long n) {
        long scale = 1;
        while (n / scale >= 100) {
            scale *= 10;
        }
        return Math.round((double) n / scale) * scale;
    }

    /**
     * Admissions a second the line's ETAs are computed with: the rate of the last ten seconds as of the progress (not
     * of the clock: the edge, which holds the same progress, then tells the same ETA), else the room's set rate.
     */
    static double rate(WaitingRoom room, LineProgress p) {
        double rate = p.rate(p.at());
        return rate <= 0 && room.admitPerSecond() != null ? room.admitPerSecond() : rate;
    }

    /** When the last unpaid order's payment window ends. */
    static Instant returnBy(Sale sale, LineProgress p) {
        return Instant.ofEpochMilli(p.soldOutAt()).plusSeconds(sale.payWindowSeconds());
    }

    /**
     * A waiting buyer polls at least four times per admission time: admitted just after a poll, they still hear of
     * it with most of their turn left.
     */
    static int maxRefresh(WaitingRoom room) {
        return (int) Math.max(MIN_REFRESH_SECONDS, Math.min(MAX_REFRESH_SECONDS, room.admitSeconds() / 4));
    }

    private static int clamp(long seconds, int max) {
        return (int) Math.max(MIN_REFRESH_SECONDS, Math.min(max, seconds));
    }
}
