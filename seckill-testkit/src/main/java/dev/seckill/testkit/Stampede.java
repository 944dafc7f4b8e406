package dev.seckill.testkit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A flash-sale crowd against one sale, the one stampede loop of the tests and the bench: shoppers wait in one queue
 * (shuffled by the sale id) and click "buy" up to {@code clicks} times each; after each answer a {@link Rule} says
 * whether the shopper stops, clicks again at once (from the back of the queue) or once the answer's Retry-After has
 * passed. It only decides who clicks next: a transport takes a shopper ({@link #next}, {@link #take}), sends its
 * click and hands back the answer ({@link #answered}). {@link #run} is the JDK's HTTP client on {@code connections}
 * platform threads; the bench drives it from its NIO load client.
 */
public final class Stampede<S> {

    /** What a shopper does after an answer. */
    public enum Then { STOP, AGAIN, WAIT }

    /** What a shopper does after an answer of this status and code (null without one). */
    @FunctionalInterface
    public interface Rule {
        Then after(int status, String code);
    }

    /** The flash sale's crowd: stops once it holds an order or can never get one, else clicks again at once. */
    public static final Rule CROWD = (status, code) -> holdsOrderOrHopeless(status, code) ? Then.STOP : Then.AGAIN;
    /** As the sale page: also stops at SOLD_OUT or SALE_ENDED (410) and waits out a 429's or a 503's Retry-After. */
    public static final Rule PAGE = (status, code) -> holdsOrderOrHopeless(status, code) || status == 410 ? Then.STOP
            : status == 429 || status == 503 ? Then.WAIT : Then.AGAIN;
    /** The tests' shopper: waits after a 429, a 503 or no answer, stops at any other answer. */
    public static final Rule PATIENT = (status, code) -> status == 429 || status == 503 || status == 0 ? Then.WAIT
            : Then.STOP;

    /** A signed-in shopper. */
    public record User(long id, String token) {
    }

    /**
     * What {@link #run} runs. {@code pauseMillis} spreads the clicks after a wait: a shopper waits the answer's
     * Retry-After plus up to that long, or without one half to one and a half times it. {@code contract}: every
     * answer is checked against the OpenAPI document ({@link ApiContract}), as HttpJson's are; off for floods.
     */
    public record Plan(String baseUrl, long saleId, List<User> users, int attemptsPerUser, int connections,
                       Duration maxDuration, long pauseMillis, boolean contract) {

        public Plan(String baseUrl, long saleId, List<User> users, int attemptsPerUser, int connections,
                    Duration maxDuration, long pauseMillis) {
            this(baseUrl, saleId, users, attemptsPerUser, connections, maxDuration, pauseMillis, false);
        }
    }

    /**
     * One click as {@link #run} saw it: who, when (ns from the start), how long, and the answer: status (0 when none
     * came), code, order id, whether the edge wrote it itself, and its Retry-After in seconds (-1 without one).
     */
    public record Click(long userId, long startNanos, long latencyNanos, int status, String code, String orderId,
                        boolean byEdge, long retryAfterSeconds) {
    }

    /** One shopper in the queue and the clicks it has made. */
    public static final class Shopper<S> {
        public final S who;
        private int clicks;
        private long readyAt;

        private Shopper(S who) {
            this.who = who;
        }
    }

    private final ArrayDeque<Shopper<S>> queue = new ArrayDeque<>();
    private final PriorityQueue<Shopper<S>> waiting = new PriorityQueue<>(Comparator.comparingLong(s -> s.readyAt));
    private final int clicks;
    private final Rule rule;
    private final long jitterNanos;
    private int inFlight;

    /** {@code jitterNanos}: as a plan's pause; 0 waits exactly the Retry-After. */
    public Stampede(List<S> shoppers, long seed, int clicks, Rule rule, long jitterNanos) {
        List<Shopper<S>> all = new ArrayList<>(shoppers.size());
        shoppers.forEach(s -> all.add(new Shopper<>(s)));
        Collections.shuffle(all, new Random(seed));
        queue.addAll(all);
        this.clicks = clicks;
        this.rule = rule;
        this.jitterNanos = jitterNanos;
    }

    /** The next shopper whose turn it is at {@code now} (System.nanoTime()), or null if none is. */
    public synchronized Shopper<S> next(long now) {
        while (!waiting.isEmpty() && waiting.peek().readyAt <= now) {
            queue.add(waiting.poll());
        }
        Shopper<S> s = queue.poll();
        if (s != null) {
            s.clicks++;
            inFlight++;
        }
        return s;
    }

    /** {@link #next}, waiting for a turn; null once nobody is left to click or at the deadline. */
    public synchronized Shopper<S> take(long deadline) throws InterruptedException {
        for (long now = System.nanoTime(); now < deadline; now = System.nanoTime()) {
            Shopper<S> s = next(now);
            if (s != null) {
                return s;
            }
            if (inFlight == 0 && waiting.isEmpty()) {
                return null;
            }
            TimeUnit.NANOSECONDS.timedWait(this, (waiting.isEmpty() ? deadline : waiting.peek().readyAt) - now);
        }
        return null;
    }

    /** The answer to {@code s}'s click at {@code now}; {@code retryAfterNanos} the wait it asked for, -1 none. */
    public synchronized void answered(Shopper<S> s, int status, String code, long retryAfterNanos, long now) {
        inFlight--;
        Then then = s.clicks >= clicks ? Then.STOP : rule.after(status, code);
        if (then == Then.AGAIN) {
            queue.add(s);
        } else if (then == Then.WAIT) {
            long jitter = ThreadLocalRandom.current().nextLong(jitterNanos + 1);
            s.readyAt = now + (retryAfterNanos >= 0 ? retryAfterNanos : jitterNanos / 2) + jitter;
            waiting.add(s);
        }
        notifyAll();
    }

    /** Whether nobody waits out a Retry-After (the queue may still hold shoppers). */
    public synchronized boolean finished() {
        return waiting.isEmpty();
    }

    /** Runs the plan ({@link #PATIENT} shoppers) and returns every click, in no particular order. */
    public static List<Click> run(Plan plan) throws InterruptedException {
        List<Click> clicks = Collections.synchronizedList(new ArrayList<>());
        run(plan, clicks::add);
        return new ArrayList<>(clicks);
    }

    /** Runs the plan, handing each click to {@code out} (from many threads) as it completes. */
    public static void run(Plan plan, Consumer<Click> out) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create(plan.baseUrl() + "/api/sales/" + plan.saleId() + "/purchase");
        Stampede<User> crowd = new Stampede<>(plan.users(), plan.saleId(), plan.attemptsPerUser(), PATIENT,
                TimeUnit.MILLISECONDS.toNanos(plan.pauseMillis()));
        long start = System.nanoTime();
        long deadline = start + plan.maxDuration().toNanos();
        List<Future<?>> workers = new ArrayList<>();
        // Platform threads: a crowd of the test JVM never waits on the virtual-thread scheduler, which the JVM's libraries
        // share (one stuck carrier there would freeze every click while the service sits idle).
        try (ExecutorService pool = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().name("crowd-", 0)
                .factory())) {
            for (int i = 0; i < plan.connections(); i++) {
                workers.add(pool.submit(() -> {
                    for (Shopper<User> s; (s = crowd.take(deadline)) != null; ) {
                        Click c = click(http, uri, s.who, start, plan.contract());
                        crowd.answered(s, c.status(), c.code(),
                                c.retryAfterSeconds() < 0 ? -1 : TimeUnit.SECONDS.toNanos(c.retryAfterSeconds()),
                                System.nanoTime());
                        out.accept(c);
                    }
                    return null;
                }));
            }
        }
        for (Future<?> w : workers) {
            try {
                w.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a stampede worker failed", e.getCause());
            }
        }
    }

    private static Click click(HttpClient http, URI uri, User u, long start, boolean contract)
            throws InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + u.token())
                .header("X-Forwarded-For", address(u.id()))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        long t0 = System.nanoTime();
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (contract) {
                ApiContract.check("POST", uri.toString(), r.statusCode(), h -> r.headers().firstValue(h).orElse(null),
                        r.body());
            }
            long retryAfter = r.headers().firstValue("Retry-After").filter(v -> v.matches("[0-9]{1,4}"))
                    .map(Long::parseLong).orElse(-1L);
            return new Click(u.id(), t0 - start, System.nanoTime() - t0, r.statusCode(),
                    Bodies.field(r.body(), "code"), Bodies.field(r.body(), "orderId"),
                    r.headers().firstValue("X-Seckill-Answered-By").isPresent(), retryAfter);
        } catch (IOException e) {
            // No answer at all (connection refused or reset): recorded as status 0, never as a success.
            return new Click(u.id(), t0 - start, System.nanoTime() - t0, 0, "NO_ANSWER", null, false, -1);
        }
    }

    /** A distinct private IPv4 address per user (for up to 2^24 users), sent as X-Forwarded-For. */
    public static String address(long userId) {
        return "10." + ((userId >> 16) & 255) + "." + ((userId >> 8) & 255) + "." + (userId & 255);
    }

    private static boolean holdsOrderOrHopeless(int status, String code) {
        return status == 202 || (status == 409 && "ALREADY_PURCHASED".equals(code))
                || status == 400 || status == 401 || status == 403 || status == 404;
    }
}
