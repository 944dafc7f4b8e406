package dev.seckill.line;

import dev.seckill.http.Answers;
import dev.seckill.sale.Sale;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A sale's line progress as the service publishes it: to each edge (LineService's progress route) and to
 * standing.lua (Standings), which places a ticket in it by the same rules on both sides (docs/waiting-room.md, "One
 * standing"). Every figure that does not depend on a ticket is computed here, once, and used there as it is.
 */
public final class PublishedProgress {

    /** The slowest a waiting client is told to poll after the draw, and the fastest. */
    static final int MAX_REFRESH_SECONDS = 10;
    static final int MIN_REFRESH_SECONDS = 1;

    private PublishedProgress() {
    }

    /**
     * Numbers, booleans and strings, and each step as [ms, admitted, cut] (the edge and Redis decode it with cjson).
     * The instants the answers show are written here (drawAt, returnBy) and shown as they are.
     */
    public static Map<String, Object> of(Sale s, LineProgress p, LineSettings settings) {
        WaitingRoom room = s.waitingRoom();
        List<List<Long>> steps = p.steps().stream().map(st -> List.of(st.ms(), st.admitted(), st.cut())).toList();
        return Answers.body("saleId", s.id(), "at", p.at(),
                "startsAt", s.startsAt().toEpochMilli(), "endsAt", s.endsAt().toEpochMilli(),
                "admitMs", room.admission().toMillis(), "drawn", p.drawn(), "prequeue", p.prequeue(),
                "joinedAfter", p.joinedAfter(), "admitted", p.admitted(), "cut", p.cut(),
                "randomBound", LineProgress.ALL, "remaining", p.remaining(), "mayReturn", p.mayReturn(),
                "soldOutAt", p.soldOutAt(), "drawAt", s.startsAt().toString(), "returnBy", returnBy(s, p).toString(),
                "rate", rate(room, p), "maxRefreshSeconds", maxRefresh(room),
                "refreshMs", settings.interval().toMillis(), "steps", steps);
    }

    /**
     * Admissions a second the line's ETAs are computed with: the rate of the last ten seconds as of the progress (not
     * of the clock: every holder of the same progress tells the same ETA), else the room's set rate.
     */
    static double rate(WaitingRoom room, LineProgress p) {
        double rate = p.rate(p.at());
        return rate <= 0 && room.admitPerSecond() != null ? room.admitPerSecond() : rate;
    }

    /**
     * When the last unpaid order's payment window ends (its unit comes back within an expiry interval after that).
     * The line waits as long as any unit may come back, whatever the clock: each is paid or returned in the end.
     */
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
}
