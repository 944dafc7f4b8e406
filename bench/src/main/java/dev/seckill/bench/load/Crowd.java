package dev.seckill.bench.load;

import dev.seckill.testkit.Stampede;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The flash-sale crowd, a {@link Stampede} of {@link Stampede#CROWD} shoppers, as a {@link LoadClient} script: every
 * user clicks "buy" up to {@code clicks} times, SOLD_OUT does not stop it (the flood after the sell-out), and a user
 * clicking again goes to the back of the queue, so the pause between its clicks is the time the crowd ahead takes.
 */
public final class Crowd implements LoadClient.Script {

    private final Users users;
    private final int port;
    private final byte[][] requests;
    private final long saleId;
    private final int clicks;
    private final long t0;
    private final List<AnsweredClick> attempts = new ArrayList<>();
    private Stampede<Integer> stampede;
    private Consumer<AnsweredClick> onAccepted = a -> { };

    /** {@code t0}: the System.nanoTime() that attempt start times are measured from. */
    public Crowd(Users users, long saleId, int edgePort, int clicks, long t0) {
        this.users = users;
        this.port = edgePort;
        this.requests = IntStream.range(0, users.size()).mapToObj(i -> users.purchase(i, saleId, edgePort))
                .toArray(byte[][]::new);
        this.saleId = saleId;
        this.clicks = clicks;
        this.t0 = t0;
        this.stampede = stampede(Stampede.CROWD);
    }

    /** Shoppers as the sale page behaves ({@link Stampede#PAGE}: Retry-After honoured, SOLD_OUT final). */
    public Crowd likeThePage() {
        stampede = stampede(Stampede.PAGE);
        return this;
    }

    /** Each 202 goes to {@code winner} as it is answered (so that a payment window starts at once). */
    public Crowd onAccepted(Consumer<AnsweredClick> winner) {
        onAccepted = winner;
        return this;
    }

    /** Lets the crowd loose over {@code connections} until it is done or the deadline; every attempt. */
    public List<AnsweredClick> run(int connections, long deadlineNanos) throws IOException {
        LoadClient.run(port, connections, this, deadlineNanos, Duration.ofSeconds(30));
        return attempts;
    }

    private Stampede<Integer> stampede(Stampede.Rule rule) {
        return new Stampede<>(IntStream.range(0, requests.length).boxed().toList(), saleId, clicks, rule, 0);
    }

    @Override
    public LoadClient.Request next() {
        Stampede.Shopper<Integer> s = stampede.next(System.nanoTime());
        return s == null ? null : new LoadClient.Request(requests[s.who], s);
    }

    @Override
    public boolean finished() {
        return stampede.finished();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        Stampede.Shopper<Integer> s = (Stampede.Shopper<Integer>) request.tag();
        AnsweredClick a = answer.attempt(users.id(s.who), start - t0, end - start);
        attempts.add(a);
        if (a.accepted()) {
            onAccepted.accept(a);
        }
        stampede.answered(s, a.status(), a.code(), answer.retryAfterNanos(), end);
    }

    /** Every attempt so far; read it after the run. */
    public List<AnsweredClick> attempts() {
        return attempts;
    }
}
