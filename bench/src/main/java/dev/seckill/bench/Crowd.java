package dev.seckill.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The flash-sale crowd as a {@link LoadClient} script. Every user clicks "buy" up to {@code clicks} times and stops
 * early only once it holds an order (202, or 409 ALREADY_PURCHASED) or its request can never succeed (400, 401,
 * 403, 404). SOLD_OUT does not stop it: shoppers click again in disbelief, which is the flood after the sell-out.
 * The users wait in one queue in shuffled order and a user who clicks again goes to its back, so the pause between
 * one user's clicks is the time the crowd ahead of it takes (there is no sleep). Bounded: at most users x clicks.
 */
final class Crowd implements LoadClient.Script {

    private static final class Shopper {
        final long id;
        final byte[] request;
        int clicks;

        Shopper(long id, byte[] request) {
            this.id = id;
            this.request = request;
        }
    }

    /** A shopper waiting out a Retry-After (FIFO: every wait is the same whole seconds from a later answer). */
    private record Waiting(long readyAt, Shopper shopper) {
    }

    private final ArrayDeque<Shopper> queue = new ArrayDeque<>();
    private ArrayDeque<Waiting> waiting;
    private final int clicks;
    private final long t0;
    private final List<Attempt> attempts = new ArrayList<>();

    /** {@code t0}: the System.nanoTime() that attempt start times are measured from. */
    Crowd(Users users, long saleId, int edgePort, int clicks, long t0) {
        List<Shopper> all = new ArrayList<>(users.size());
        for (int i = 0; i < users.size(); i++) {
            all.add(new Shopper(users.id(i), users.purchase(i, saleId, edgePort)));
        }
        Collections.shuffle(all, new Random(saleId));
        queue.addAll(all);
        this.clicks = clicks;
        this.t0 = t0;
    }

    /**
     * Shoppers as the sale page behaves: one told to retry later (429 or 503) clicks again only after the answer's
     * Retry-After, and one told SOLD_OUT or SALE_ENDED stops. Without it (the flash sale's crowd) every shopper
     * clicks again at once, the sold-out answers too.
     */
    Crowd likeThePage() {
        this.waiting = new ArrayDeque<>();
        return this;
    }

    @Override
    public LoadClient.Request next() {
        if (waiting != null) {
            long now = System.nanoTime();
            while (!waiting.isEmpty() && waiting.peekFirst().readyAt <= now) {
                queue.add(waiting.pollFirst().shopper);
            }
        }
        Shopper s = queue.poll();
        if (s == null) {
            return null;
        }
        s.clicks++;
        return new LoadClient.Request(s.request, s);
    }

    @Override
    public boolean finished() {
        return waiting == null || waiting.isEmpty();
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        Shopper s = (Shopper) request.tag();
        int status = answer.status();
        String code = status == 0 ? "NO_ANSWER" : answer.code();
        attempts.add(new Attempt(s.id, start - t0, end - start, status, code, Bodies.field(answer.body(), "orderId"),
                answer.byEdge()));
        if (holdsOrderOrHopeless(status, code) || s.clicks >= clicks) {
            return;
        }
        if (waiting == null) {
            queue.add(s);
        } else if (status == 429 || status == 503) {
            waiting.addLast(new Waiting(end + RetryAfter.nanos(answer), s));
        } else if (status != 410) {
            queue.add(s);
        }
    }

    private static boolean holdsOrderOrHopeless(int status, String code) {
        return status == 202 || (status == 409 && "ALREADY_PURCHASED".equals(code))
                || status == 400 || status == 401 || status == 403 || status == 404;
    }

    /** Every attempt so far; read it after the run. */
    List<Attempt> attempts() {
        return attempts;
    }
}
