package dev.seckill.bench;

import dev.seckill.testkit.Bodies;
import dev.seckill.testkit.Stack;
import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * A sale's first seconds with and without the challenge, as a {@link LoadClient} script: shoppers on connections
 * opened before the start act once it is on (click; or challenge, solve, path, click), as the sale page does.
 */
final class ArrivalCurve implements LoadClient.Script {

    static final int BITS = 8;
    static final double DEVICE_HASHES_PER_SECOND = 25_000.0 / (1 << (13 - BITS));
    static final long BUCKET_MS = 100;
    /** Each side ends after these buckets (10 s): a shopper still busy then has failed. */
    static final int BUCKETS = 100;

    /**
     * Per 100 ms by the moment sent: purchases the service answered, the edge refused (429), challenge and path steps.
     * Failed: no answer, a step refused, or busy at the end; late: solved after its device's moment.
     */
    record Side(String name, int shoppers, long bought, long p50Ms, long p90Ms, long maxMs, long peakServed,
                long peakRequests, long failed, long late, Map<String, Long> answers, long[] served,
                long[] refusedAtEdge, long[] steps) {
    }

    record Result(int shoppers, int bits, double deviceHashesPerSecond, Side plain, Side challenge) {
    }

    private enum Step { CHALLENGE, PATH, PURCHASE }

    private static final class Shopper {
        int user;
        Step step;
        long at;
        int tries;
        byte[] request;
    }

    private final Users users;
    private final int port;
    private final long sale;
    private final long t0;
    private final PriorityQueue<Shopper> due = new PriorityQueue<>(Comparator.comparingLong(s -> s.at));
    private final List<Attempt> purchases = new ArrayList<>();
    private final long[] served = new long[BUCKETS];
    private final long[] refused = new long[BUCKETS];
    private final long[] steps = new long[BUCKETS];
    private final Map<String, Long> answers = new TreeMap<>();
    private final Histogram boughtMs = new Histogram(3);
    private final MessageDigest sha = MessageDigest.getInstance("SHA-256");
    private long late;
    private long ended;

    private ArrivalCurve(Users users, int port, long sale, boolean challenge, long t0, int n) throws Exception {
        this.users = users;
        this.port = port;
        this.sale = sale;
        this.t0 = t0;
        for (int i = 0; i < n; i++) {
            Shopper s = new Shopper();
            s.user = i;
            s.request = challenge ? request("GET /api/sales/" + sale + "/challenge", i, "")
                    : users.purchase(i, sale, port);
            again(s, challenge ? Step.CHALLENGE : Step.PURCHASE, t0);
        }
    }

    /** Both sides, unprotected first; each sale and its purchases go to {@code sales}. */
    static Result run(Stack stack, Admin admin, Users users, int n, List<Ceilings.PurchaseSale> sales)
            throws Exception {
        Side[] sides = new Side[2];
        for (int k = 0; k < 2; k++) {
            String protection = k == 0 ? "none" : "challenge";
            Bench.say("protection: the first seconds of a sale of " + n + " shoppers, protection " + protection);
            Instant startsAt = Instant.now().plusSeconds(2);
            long sale = admin.createSale("bench-arrival-" + System.nanoTime(), n, startsAt, protection, BITS);
            // The start on this JVM's nanosecond clock (the service reads the same wall clock on this machine).
            long t0 = System.nanoTime() + Duration.between(Instant.now(), startsAt).toNanos();
            ArrivalCurve c = new ArrivalCurve(users, stack.edgePort(), sale, k == 1, t0, n);
            LoadClient.run(new InetSocketAddress("127.0.0.1", stack.edgePort()), n, c, t0 + BUCKETS * BUCKET_MS
                    * 1_000_000, Duration.ofSeconds(10));
            sales.add(new Ceilings.PurchaseSale(sale, c.purchases));
            Histogram h = c.boughtMs;
            sides[k] = new Side(k == 0 ? "clicks at once (unprotected sale)" : "challenge first (challenge sale)", n,
                    h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getMaxValue(),
                    Arrays.stream(c.served).max().orElse(0),
                    IntStream.range(0, BUCKETS).mapToLong(b -> c.served[b] + c.steps[b]).max().orElse(0),
                    n - c.ended, c.late, c.answers, c.served, c.refused, c.steps);
        }
        return new Result(n, BITS, DEVICE_HASHES_PER_SECOND, sides[0], sides[1]);
    }

    @Override
    public LoadClient.Request next() {
        Shopper s = due.peek();
        if (s == null || s.at > System.nanoTime()) {
            return null;
        }
        return new LoadClient.Request(due.poll().request, s);
    }

    @Override
    public boolean finished() {
        return due.isEmpty();
    }

    @Override
    public void answered(LoadClient.Request request, long start, long end, Answer answer) {
        Shopper s = (Shopper) request.tag();
        int b = (int) ((start - t0) / (BUCKET_MS * 1_000_000));
        int status = answer.status();
        steps[b] += s.step == Step.PURCHASE ? 0 : 1;
        if (s.step == Step.CHALLENGE && status == 409 && ++s.tries < 50) {
            // The service's clock may put the start a few ms after this JVM's: ask again shortly, boundedly.
            again(s, s.step, end + 20_000_000);
        } else if (s.step == Step.CHALLENGE && status == 200) {
            long nonce = ProtectionCosts.solve(sha, Bodies.field(answer.body(), "salt"),
                    Integer.parseInt(Bodies.field(answer.body(), "bits")));
            s.request = request("POST /api/sales/" + sale + "/path", s.user, "{\"challengeId\":\""
                    + Bodies.field(answer.body(), "challengeId") + "\",\"nonce\":\"" + nonce + "\"}");
            again(s, Step.PATH, end + (long) ((nonce + 1) / DEVICE_HASHES_PER_SECOND * 1e9));
            late += System.nanoTime() > s.at ? 1 : 0;
        } else if (s.step == Step.PATH && status == 200) {
            s.request = users.purchase(s.user, sale, Bodies.field(answer.body(), "path"), port);
            s.tries = 0;
            again(s, Step.PURCHASE, end);
        } else if (s.step == Step.PURCHASE) {
            Attempt a = new Attempt(users.id(s.user), start - t0, end - start, status,
                    status == 0 ? "NO_ANSWER" : answer.code(), Bodies.field(answer.body(), "orderId"), answer.byEdge());
            purchases.add(a);
            answers.merge(a.kind(), 1L, Long::sum);
            (status == 429 ? refused : served)[b] += status == 0 ? 0 : 1;
            if (status == 202) {
                boughtMs.recordValue((end - t0) / 1_000_000);
            }
            if ((status == 429 || status == 503) && ++s.tries < 3) {
                again(s, s.step, end + answer.retryAfterNanos());
            } else {
                ended += status == 0 ? 0 : 1;
            }
        }
    }

    private void again(Shopper s, Step step, long at) {
        s.step = step;
        s.at = at;
        due.add(s);
    }

    private byte[] request(String line, int user, String json) {
        return (line + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: Bearer " + users.token(user)
                + "\r\nX-Forwarded-For: " + Users.address(users.id(user)) + "\r\nContent-Type: application/json"
                + "\r\nContent-Length: " + json.length() + "\r\n\r\n" + json).getBytes(StandardCharsets.ISO_8859_1);
    }

    static void addTo(Section s, Result a) {
        Side p = a.plain();
        Side c = a.challenge();
        s.text("""
                ### The first seconds of a sale, with and without the challenge

                %d shoppers per sale; a 429 or 503 is tried again after its Retry-After, three purchases at most. A \
                device solves in what its salt took at %d bits / %,.0f hashes/s (the sale page's 25,000/s in Chromium, \
                ProtectedSalePageIT, scaled like the difficulty: the mean solve of 13 bits, 0.33 s).""", a.shoppers(),
                a.bits(), a.deviceHashesPerSecond()).table("", "shoppers with a 202", "first 202 after p50 / p90 / max",
                "busiest 100 ms at the service: purchases / purchases + steps", "purchases the service answered / "
                + "the edge refused", "every purchase's answer", "failed", "late");
        for (Side d : List.of(p, c)) {
            s.row(d.name(), d.bought() + " of " + d.shoppers(), d.p50Ms() + " / " + d.p90Ms() + " / " + d.maxMs()
                    + " ms", "**" + d.peakServed() + "** / **" + d.peakRequests() + "**", Arrays.stream(d.served())
                    .sum() + " / " + Arrays.stream(d.refusedAtEdge()).sum(), d.answers(), d.failed(), d.late());
        }
        s.text("Busiest 100 ms at the service with the challenge / without: **%.2f** counting purchases, **%.2f** "
                + "every request. Per 100 ms from the start, by the moment sent: purchases the service answered "
                + "(purchases the edge refused) + challenge and path steps; quiet 100 ms left out.",
                (double) c.peakServed() / Math.max(1, p.peakServed()),
                (double) c.peakRequests() / Math.max(1, p.peakRequests())).table("ms", "clicks at once", "challenge");
        for (int b = 0; b < BUCKETS; b++) {
            if (p.served()[b] + p.refusedAtEdge()[b] + c.served()[b] + c.refusedAtEdge()[b] + c.steps()[b] > 0) {
                s.row(b * BUCKET_MS, p.served()[b] + " (" + p.refusedAtEdge()[b] + ")",
                        c.served()[b] + " (" + c.refusedAtEdge()[b] + ") + " + c.steps()[b]);
            }
        }
    }
}
