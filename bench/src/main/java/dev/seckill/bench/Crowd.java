package dev.seckill.bench;

import dev.seckill.testkit.Stampede;

import java.util.ArrayList;
import java.util.List;

/**
 * The flash-sale crowd, a {@link Stampede} of {@link Stampede#CROWD} shoppers, as a {@link LoadClient} script: every
 * user clicks "buy" up to {@code clicks} times, SOLD_OUT does not stop it (the flood after the sell-out), and a user
 * clicking again goes to the back of the queue, so the pause between its clicks is the time the crowd ahead takes.
 */
final class Crowd implements LoadClient.Script {

    private record Buyer(long id, byte[] request) {
    }

    private final List<Buyer> buyers = new ArrayList<>();
    private final long saleId;
    private final int clicks;
    private final long t0;
    private final List<Attempt> attempts = new ArrayList<>();
    private Stampede<Buyer> stampede;

    /** {@code t0}: the System.nanoTime() that attempt start times are measured from. */
    Crowd(Users users, long saleId, int edgePort, int clicks, long t0) {
        for (int i = 0; i < users.size(); i++) {
            buyers.add(new Buyer(users.id(i), users.purchase(i, saleId, edgePort)));
        }
        this.saleId = saleId;
        this.clicks = clicks;
        this.t0 = t0;
        this.stampede = new Stampede<>(buyers, saleId, clicks, Stampede.CROWD, 0);
    }

    /** Shoppers as the sale page behaves ({@link Stampede#PAGE}: Retry-After honoured, SOLD_OUT final). */
    Crowd likeThePage() {
        stampede = new Stampede<>(buyers, saleId, clicks, Stampede.PAGE, 0);
        return this;
    }

    @Override
    public LoadClient.Request next() {
        Stampede.Shopper<Buyer> s = stampede.next(System.nanoTime());
        return s == null ? null : new LoadClient.Request(s.who.request(), s);
    }

    @Override
    public boolean finished() {
        return stampede.finished();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        Stampede.Shopper<Buyer> s = (Stampede.Shopper<Buyer>) request.tag();
        Attempt a = answer.attempt(s.who.id(), start - t0, end - start);
        attempts.add(a);
        stampede.answered(s, a.status(), a.code(), answer.retryAfterNanos(), end);
    }

    /** Every attempt so far; read it after the run. */
    List<Attempt> attempts() {
        return attempts;
    }
}
