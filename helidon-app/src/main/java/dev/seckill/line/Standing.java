package dev.seckill.line;

import java.time.Instant;

/**
 * Where a ticket's holder stands: the answer to a buyer's poll, as standing.lua computes it (Standings: the service
 * runs it in Redis; the edge runs the same file itself).
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
}
