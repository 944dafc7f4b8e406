package dev.seckill.bench.load;

import dev.seckill.testkit.Bodies;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.PriorityQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A waiting-room sale's crowd as a {@link LoadClient} script: each buyer joins the line at its own moment, polls with
 * its ticket every {@code refreshSeconds} (plus up to a fifth, as the sale page does) or, for a scripted client, every
 * {@link #BOT_POLL_MS} ms, buys once admitted, and stops at its order, SOLD_OUT or a lapsed turn.
 */
public final class LineCrowd implements LoadClient.Script {

    public static final long BOT_POLL_MS = 10;
    private static final long MS = 1_000_000;

    public enum Kind { PREQUEUE, AFTER_START, BOT }

    private enum Step { JOIN, POLL, BUY, DONE }

    /** One buyer's story, times in System.nanoTime(). */
    public static final class Buyer {
        public final int index;
        public final long userId;
        public final Kind kind;
        public final long joinAt;
        /** When its first join was sent (the moment the line saw it arrive), -1 before. */
        public long joinedNanos = -1;
        public long admittedAtMs = -1;
        public long boughtNanos = -1;
        public long soldOutNanos = -1;
        public String orderId;
        public int requests;
        public int polls;
        public int pollsByEdge;
        private Step step = Step.JOIN;
        private long due;
        private String ticket;

        Buyer(int index, long userId, Kind kind, long joinAt) {
            this.index = index;
            this.userId = userId;
            this.kind = kind;
            this.joinAt = joinAt;
            this.due = joinAt;
        }
    }

    private final Users users;
    private final long saleId;
    private final int port;
    private final long admitMs;
    private final Consumer<AnsweredClick> won;
    private final List<Buyer> buyers = new ArrayList<>();
    private final List<AnsweredClick> attempts = new ArrayList<>();
    private final Map<String, Long> answers = new TreeMap<>();
    private final PriorityQueue<Buyer> queue = new PriorityQueue<>(Comparator.comparingLong(b -> b.due));

    /** @param won told of each 202 (the payers), on the client's thread */
    public LineCrowd(Users users, long saleId, int port, long admitMs, Consumer<AnsweredClick> won) {
        this.users = users;
        this.saleId = saleId;
        this.port = port;
        this.admitMs = admitMs;
        this.won = won;
    }

    /** Adds the i-th user, joining at {@code joinAt} (System.nanoTime()). */
    public void add(int i, Kind kind, long joinAt) {
        Buyer b = new Buyer(i, users.id(i), kind, joinAt);
        buyers.add(b);
        queue.add(b);
    }

    public List<Buyer> buyers() {
        return buyers;
    }

    /** Every answer by request ("join", "poll", "buy") and {@link Answer#kind}, e.g. "poll 200 IN_LINE (edge)". */
    public Map<String, Long> answers() {
        return answers;
    }

    /** The purchase answers, for the invariants. */
    public List<AnsweredClick> attempts() {
        return attempts;
    }

    @Override
    public LoadClient.Request next() {
        Buyer b = queue.peek();
        if (b == null || b.due > System.nanoTime()) {
            return null;
        }
        queue.poll();
        String path = "/api/sales/" + saleId + (b.step == Step.BUY ? "/purchase" : "/line");
        String head = (b.step == Step.POLL ? "GET " : "POST ") + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nX-Forwarded-For: " + Users.address(b.userId)
                + (b.step == Step.POLL ? "" : "\r\nAuthorization: Bearer " + users.token(b.index))
                + (b.ticket == null ? "" : "\r\nX-Line-Ticket: " + b.ticket)
                + (b.step == Step.POLL ? "" : "\r\nContent-Length: 0") + "\r\n\r\n";
        b.requests++;
        return new LoadClient.Request(head.getBytes(StandardCharsets.ISO_8859_1), b);
    }

    @Override
    public boolean finished() {
        return queue.isEmpty();
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        Buyer b = (Buyer) request.tag();
        answers.merge(b.step.name().toLowerCase(java.util.Locale.ROOT) + " " + answer.kind(), 1L, Long::sum);
        if (b.step == Step.JOIN && b.joinedNanos < 0) {
            b.joinedNanos = start;
        }
        if (b.step == Step.POLL) {
            b.polls++;
            b.pollsByEdge += answer.byEdge() ? 1 : 0;
        }
        String code = answer.status() == 0 ? null : answer.code();
        String ticket = Bodies.field(answer.body(), "ticket");
        if (ticket != null) {
            b.ticket = ticket;
        }
        if (b.step == Step.BUY) {
            attempts.add(answer.attempt(b.userId, start, end - start));
        }
        switch (code == null ? "" : code) {
            case "IN_LINE", "WAITLIST" -> again(b, Step.POLL, end, refresh(b, answer));
            case "ADMITTED" -> {
                String until = Bodies.field(answer.body(), "admittedUntil");
                b.admittedAtMs = java.time.Instant.parse(until).toEpochMilli() - admitMs;
                again(b, Step.BUY, end, 0);
            }
            case "QUEUED", "ALREADY_PURCHASED" -> {
                b.orderId = Bodies.field(answer.body(), "orderId");
                b.boughtNanos = end;
                b.step = Step.DONE;
                if (answer.status() == 202) {
                    won.accept(attempts.getLast());
                }
            }
            case "SOLD_OUT" -> {
                if (b.step == Step.BUY) {
                    // Admitted as the stock ran out: the line says whether units may still come back.
                    again(b, Step.POLL, end, 1000 * MS);
                } else {
                    b.soldOutNanos = end;
                    b.step = Step.DONE;
                }
            }
            case "ADMISSION_LAPSED", "SALE_ENDED" -> b.step = Step.DONE;
            case "NOT_ADMITTED" -> again(b, Step.POLL, end, answer.retryAfterNanos());
            default -> again(b, b.step, end, answer.retryAfterNanos());
        }
    }

    private long refresh(Buyer b, Answer answer) {
        if (b.kind == Kind.BOT) {
            return BOT_POLL_MS * MS;
        }
        String s = Bodies.field(answer.body(), "refreshSeconds");
        long ms = 1000 * (s == null ? 2 : Long.parseLong(s));
        return (ms + ThreadLocalRandom.current().nextLong(ms / 5 + 1)) * MS;
    }

    private void again(Buyer b, Step step, long now, long afterNanos) {
        b.step = step;
        b.due = now + afterNanos;
        queue.add(b);
    }
}
