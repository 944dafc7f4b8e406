package dev.seckill.purchase;

import java.time.Duration;
import java.util.List;

/**
 * The arguments of confirm.lua, which fences every order it finds without its mark: once a purchase answered 503
 * "nothing held for you", no late copy of its purchase.lua call (bytes stalled in a socket, Redisson's resend) may
 * reserve under that order id (purchase.lua answers FENCED). The buyer's own retry is a new attempt with a new order
 * id (OrderIds), so a fence never refuses it.
 */
final class Fence {

    /**
     * How long an order id stays fenced. A late copy travels on a connection the client gave up on: Redisson resends
     * within its timeout and retry (seconds), but bytes already in a socket's send buffer are retransmitted by the
     * kernel until TCP gives up (about 15 minutes with Linux's default tcp_retries2). An hour covers both with room;
     * a fence costs a few dozen bytes, and only lost answers make them.
     */
    static final Duration KEPT = Duration.ofHours(1);

    private Fence() {
    }

    /**
     * confirm.lua's ARGV: now (the latest of the attempts' clocks), how long a fence is kept, then the
     * (userId, orderId) pairs.
     */
    static Object[] confirmArgs(List<Attempt> attempts, List<?> pairs) {
        long now = attempts.stream().mapToLong(Attempt::nowMillis).max().orElseThrow();
        Object[] args = new Object[2 + pairs.size()];
        args[0] = Long.toString(now);
        args[1] = Long.toString(KEPT.toMillis());
        for (int i = 0; i < pairs.size(); i++) {
            args[2 + i] = pairs.get(i);
        }
        return args;
    }
}
