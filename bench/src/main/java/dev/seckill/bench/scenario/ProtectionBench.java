package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.Answer;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Measured.Ratio;
import dev.seckill.bench.measure.Timeline;
import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;
import dev.seckill.protection.ProofOfWork;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.testkit.Bodies;
import org.HdrHistogram.Histogram;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import static dev.seckill.bench.report.Section.f;

/**
 * {@code bench --protection}, the section "protection": a purchase path's cost over HTTP, the in-process costs
 * (the microbench module's {@code ProtectionCheck}, read from {@value Jmh#FILE}), and the challenge's effect on a
 * sale's first seconds ({@link ArrivalCurve}). Each of its sales is checked like the flash sale.
 */
public record ProtectionBench(Scenario s) {

    /** The measurements' names: first clicks (202), then the same buyers again once the writer caught up. */
    static final String[][] NAMES = {
            {"unprotected sale, accepted (202)", "challenge sale, valid path, accepted (202)"},
            {"unprotected sale, refused in Redis (409/429)", "challenge sale, valid path, refused in Redis (409/429)"}};

    public Section run() throws Exception {
        s.sampler().mark("protection");
        List<Measured> cost = pathCost();
        Section section = new Section("protection", "Protected sales (`--protection`)");
        List<Ratio> ratios = List.of(Ratio.of(cost, NAMES[0][1], NAMES[0][0]),
                Ratio.of(cost, NAMES[1][1], NAMES[1][0]));
        section.text("""
                ### What a purchase path costs a purchase, over HTTP

                Interleaved rounds through the edge, each side half the ceilings' time: a new unprotected and a new \
                `challenge` sale back to back, first clicks (202), then the same buyers again. The paths are valid, \
                so this is what checking one adds. A ratio is the median of the rounds'; 1.0 means no cost.""")
                .table("ratio", "median", "rounds", "of the best rounds");
        ratios.forEach(q -> section.row(q.name(), f("**%.2f**", q.median()), q.rounds(), q.ofBest()));
        section.table("measurement", "req/s", "p50 ms", "p99 ms", "answers");
        cost.forEach(m -> section.row(m.name(), f("%,.0f", m.rps()), f("%.1f", m.latency().p50()),
                f("%.1f", m.latency().p99()), m.byKind()));
        List<Jmh.Score> jmh = inProcess(section, Jmh.read(s.o().out()));
        ArrivalCurve.Result arrival = ArrivalCurve.run(section, s, Math.min(s.users().size(), 500));
        return section.data(Map.of("costRounds", cost, "ratios", ratios, "jmh", jmh, "arrival", arrival));
    }

    /** The tables of JMH's figures of the in-process costs (ProtectionCheck), added to {@code s}; those figures. */
    static List<Jmh.Score> inProcess(Section s, Jmh jmh) {
        List<Jmh.Score> scores = jmh.of("ProtectionCheck");
        s.text("### The service's CPU per purchase, in-process (JMH)");
        if (scores.isEmpty()) {
            s.text(Jmh.missing("ProtectionCheck"));
            return scores;
        }
        s.text("""
                The service's classes under JMH (average time, %s, error at 99.9%%; the best iteration is the one \
                neighbours disturbed least): the purchase decision unprotected (plainDecision) and protected \
                (pathCheck: one HMAC-SHA-256 of the path, no lookup), the token check (one HMAC), the purchase.lua \
                call's Java side (scriptCall; Redis stubbed). A solution costs one SHA-256, one HMAC and one Redis \
                SET NX per path issued.""", scores.getFirst().run())
                .table("benchmark", "score", "error", "best iteration");
        List<Jmh.Score> solves = scores.stream().filter(r -> r.params().containsKey("bits")).toList();
        for (Jmh.Score r : scores.stream().filter(r -> !solves.contains(r)).toList()) {
            s.row(r.benchmark(), f("**%.1f** %s", r.score(), r.unit()), f("± %.1f", r.error()),
                    f("%.1f %s", r.best(), r.unit()));
        }
        var plain = jmh.get("ProtectionCheck.plainDecision");
        var path = jmh.get("ProtectionCheck.pathCheck");
        if (plain.isPresent() && path.isPresent()) {
            s.text("Checking a path adds **%.2f µs** of CPU per purchase (pathCheck - plainDecision, best iterations).",
                    (path.get().best() - plain.get().best()) / 1000);
        }
        s.text("""
                ### A bot's solve time per difficulty (Java, one core, JMH)

                Fresh salts solved by counting nonces up from 0 as the sale page does, as many as fit in the measured \
                iterations. A bot pays 2^bits hashes per path, that is per purchase attempt, and cannot start before \
                the sale does.""").table("bits", "salts", "mean hashes", "mean solve", "hashes/s");
        for (Jmh.Score r : solves) {
            double hashes = r.counters().get("hashes");
            double salts = r.counters().get("solves");
            s.row(r.params().get("bits"), (long) salts, f("%,.0f", hashes / salts),
                    f("%.2f ± %.2f ms", r.score(), r.error()), f("%,.0f", hashes / (salts * r.score() / 1000)));
        }
        return scores;
    }

    /** The rounds in order, paths minted as the service does; each sale is checked after its round. */
    private List<Measured> pathCost() throws Exception {
        PurchasePaths minter = new PurchasePaths(s.stack().tokenSecret(), Duration.ofSeconds(120), Clock.systemUTC());
        List<Measured> rounds = new ArrayList<>();
        Users users = s.users();
        int n = users.size();
        Duration half = s.o().ceilingTime().dividedBy(2);
        for (int r = 1; r <= s.o().rounds(); r++) {
            Progress.say("protection: purchase cost, round " + r + " of " + s.o().rounds());
            Instant now = Instant.now().minusSeconds(1);
            long[] sale = {s.createSale("bench-unprotected-" + System.nanoTime(), n, now,
                    Map.of("protection", "none")), s.createSale("bench-challenge-" + System.nanoTime(), n, now,
                    Map.of("protection", "challenge", "challengeBits", 13))};
            String[][] paths = {null, IntStream.range(0, n).mapToObj(i -> minter.mint(sale[1], users.id(i)).path())
                    .toArray(String[]::new)};
            List<List<AnsweredClick>> attempts = List.of(new ArrayList<>(), new ArrayList<>());
            for (int k = 0; k < 2 && r == 1; k++) { // the JIT's warm-up of both routes with the last users
                steady(null, sale[k], paths[k], i -> n - 1 - i % n, Duration.ofSeconds(1), attempts.get(k));
            }
            for (int k = 0; k < 2; k++) {
                rounds.add(steady(NAMES[0][k], sale[k], paths[k], i -> i % n, half, attempts.get(k)));
            }
            for (int k = 0; k < 2; k++) {
                int[] buyers = s.buyers("protection", sale[k], attempts.get(k));
                rounds.add(steady(NAMES[1][k], sale[k], paths[k], i -> buyers[i % buyers.length], half,
                        attempts.get(k)));
                s.check("protection", sale[k], attempts.get(k), null);
            }
        }
        return rounds;
    }

    /** A round of {@code d}: the i-th purchase by user {@code user(i)}, through its path when {@code paths}. */
    private Measured steady(String name, long sale, String[] paths, IntUnaryOperator user, Duration d,
                            List<AnsweredClick> attempts) throws Exception {
        return Scenario.steady(s.stack().edgePort(), s.o().connections(), name, i -> s.purchase(sale,
                user.applyAsInt(i), paths == null ? null : paths[user.applyAsInt(i)], s.stack().edgePort()), d,
                attempts, true);
    }

    /**
     * A sale's first seconds with and without the challenge, as a {@link LoadClient} script: shoppers on connections
     * opened before the start act once it is on (click; or challenge, solve, path, click), as the sale page does.
     */
    static final class ArrivalCurve implements LoadClient.Script {

        static final int BITS = 8;
        /** The sale page's 25,000 hashes/s in Chromium (ProtectedSalePageIT) at 13 bits, scaled like the difficulty. */
        static final double DEVICE_HASHES_PER_SECOND = 25_000.0 / (1 << (13 - BITS));
        static final long BUCKET_NANOS = Duration.ofMillis(100).toNanos();
        /** Each side ends after these buckets (10 s): a shopper still busy then has failed. */
        static final int BUCKETS = 100;

        /**
         * Per 100 ms by the moment sent: purchases the service answered, the edge refused (429), challenge and path
         * steps. Failed: no answer, a step refused, or busy at the end; late: solved after its device's moment.
         */
        record Side(String name, long bought, long p50Ms, long p90Ms, long maxMs, long peakServed,
                    long peakRequests, long failed, long late, Map<String, Long> answers, long[] served,
                    long[] refusedAtEdge, long[] steps) {
        }

        public record Result(int shoppers, int bits, double deviceHashesPerSecond, Side plain, Side challenge) {
        }

        private enum Step { CHALLENGE, PATH, PURCHASE }

        /** A shopper's next request and when it is due; {@code tries} of the same step so far. */
        private record Shopper(int user, Step step, long at, int tries, byte[] request) {
            public Shopper then(Step next, long when, byte[] bytes) {
                return new Shopper(user, next, when, next == step ? tries + 1 : 0, bytes);
            }
        }

        private final Users users;
        private final int port;
        private final long sale;
        private final long t0;
        private final PriorityQueue<Shopper> due = new PriorityQueue<>(Comparator.comparingLong(s -> s.at));
        private final List<AnsweredClick> purchases = new ArrayList<>();
        private final long[] steps = new long[BUCKETS];
        private long late;
        private long ended;

        private ArrivalCurve(Users users, int port, long sale, boolean challenge, long t0, int n) throws Exception {
            this.users = users;
            this.port = port;
            this.sale = sale;
            this.t0 = t0;
            for (int i = 0; i < n; i++) {
                due.add(challenge ? new Shopper(i, Step.CHALLENGE, t0, 0, users.request("GET /api/sales/" + sale
                        + "/challenge", i, port, "")) : new Shopper(i, Step.PURCHASE, t0, 0, users.purchase(i, sale,
                        port)));
            }
        }

        /** Both sides, unprotected first, added to {@code s}; each sale is checked once the writer holds its orders. */
        public static Result run(Section s, Scenario run, int n) throws Exception {
            Users users = run.users();
            int port = run.stack().edgePort();
            Side[] sides = new Side[2];
            for (int k = 0; k < 2; k++) {
                String protection = k == 0 ? "none" : "challenge";
                Progress.say("protection: the first seconds of a sale of " + n + " shoppers, protection " + protection);
                Instant startsAt = Instant.now().plusSeconds(2);
                long sale = run.createSale("bench-arrival-" + System.nanoTime(), n, startsAt, k == 0
                        ? Map.of("protection", protection) : Map.of("protection", protection, "challengeBits", BITS));
                // The start on this JVM's nanosecond clock (the service reads the same wall clock on this machine).
                long t0 = System.nanoTime() + Duration.between(Instant.now(), startsAt).toNanos();
                ArrivalCurve curve = new ArrivalCurve(users, port, sale, k == 1, t0, n);
                LoadClient.run(port, n, curve, t0 + BUCKETS * BUCKET_NANOS, Duration.ofSeconds(10));
                run.awaitDrained("protection", sale, curve.purchases, Duration.ofSeconds(120));
                run.check("protection", sale, curve.purchases, null);
                sides[k] = curve.side(k == 0 ? "clicks at once (unprotected sale)" : "challenge first (challenge sale)",
                        n);
            }
            Side p = sides[0];
            Side c = sides[1];
            s.text("""
                    ### The first seconds of a sale, with and without the challenge

                    %d shoppers per sale; a 429 or 503 is tried again after its Retry-After, three purchases at most. \
                    A device solves in what its salt took at %d bits / %,.0f hashes/s (the sale page's 25,000/s in \
                    Chromium, ProtectedSalePageIT, scaled like the difficulty: the mean solve of 13 bits, 0.33 s).\
                    """, n, BITS, DEVICE_HASHES_PER_SECOND).table("", "shoppers with a 202",
                    "first 202 after p50 / p90 / max", "busiest 100 ms at the service: purchases / purchases + steps",
                    "purchases the service answered / the edge refused", "every purchase's answer", "failed", "late");
            for (Side d : List.of(p, c)) {
                s.row(d.name(), d.bought() + " of " + n, d.p50Ms() + " / " + d.p90Ms() + " / " + d.maxMs()
                        + " ms", "**" + d.peakServed() + "** / **" + d.peakRequests() + "**", Arrays.stream(d.served())
                        .sum() + " / " + Arrays.stream(d.refusedAtEdge()).sum(), d.answers(), d.failed(), d.late());
            }
            s.text("Busiest 100 ms at the service with the challenge / without: **%.2f** counting purchases, **%.2f** "
                    + "every request. Per 100 ms from the start, by the moment sent: purchases the service answered "
                    + "(purchases the edge refused) + challenge and path steps; quiet 100 ms left out.",
                    (double) c.peakServed() / Math.max(1, p.peakServed()),
                    (double) c.peakRequests() / Math.max(1, p.peakRequests()))
                    .table("ms", "clicks at once", "challenge");
            for (int b = 0; b < BUCKETS; b++) {
                if (p.served()[b] + p.refusedAtEdge()[b] + c.served()[b] + c.refusedAtEdge()[b] + c.steps()[b] > 0) {
                    s.row(b * 100, p.served()[b] + " (" + p.refusedAtEdge()[b] + ")",
                            c.served()[b] + " (" + c.refusedAtEdge()[b] + ") + " + c.steps()[b]);
                }
            }
            return new Result(n, BITS, DEVICE_HASHES_PER_SECOND, p, c);
        }

        @Override
        public LoadClient.Request next() {
            Shopper s = due.peek();
            return s == null || s.at > System.nanoTime() ? null : new LoadClient.Request(due.poll().request, s);
        }

        @Override
        public boolean finished() {
            return due.isEmpty();
        }

        @Override
        public void answered(LoadClient.Request request, long start, long end, Answer answer) {
            Shopper s = (Shopper) request.tag();
            int status = answer.status();
            if (s.step != Step.PURCHASE) {
                steps[(int) ((start - t0) / BUCKET_NANOS)]++;
            }
            if (s.step == Step.CHALLENGE && status == 409 && s.tries < 49) {
                // The service's clock may put the start a few ms after this JVM's: ask again shortly, boundedly.
                due.add(s.then(s.step, end + 20_000_000, s.request));
            } else if (s.step == Step.CHALLENGE && status == 200) {
                long nonce = ProofOfWork.solve(Bodies.field(answer.body(), "salt"),
                        Integer.parseInt(Bodies.field(answer.body(), "bits")));
                Shopper path = s.then(Step.PATH, end + (long) ((nonce + 1) / DEVICE_HASHES_PER_SECOND * 1e9),
                        users.request("POST /api/sales/" + sale + "/path", s.user, port, "{\"challengeId\":\""
                                + Bodies.field(answer.body(), "challengeId") + "\",\"nonce\":\"" + nonce + "\"}"));
                late += System.nanoTime() > path.at ? 1 : 0;
                due.add(path);
            } else if (s.step == Step.PATH && status == 200) {
                String path = Bodies.field(answer.body(), "path");
                due.add(s.then(Step.PURCHASE, end, users.purchase(s.user, sale, path, port)));
            } else if (s.step == Step.PURCHASE) {
                purchases.add(answer.attempt(users.id(s.user), start - t0, end - start));
                if ((status == 429 || status == 503) && s.tries < 2) { // three purchases at most
                    due.add(s.then(s.step, end + answer.retryAfterNanos(), s.request));
                } else {
                    ended += status == 0 ? 0 : 1;
                }
            }
        }

        /** The side's numbers from its purchases (a 202 timed from the start to its answer) and its steps. */
        private Side side(String name, int n) {
            long[] served = new long[BUCKETS];
            long[] refused = new long[BUCKETS];
            Histogram bought = new Histogram(3);
            for (AnsweredClick a : purchases) {
                int b = (int) (a.startNanos() / BUCKET_NANOS);
                (a.status() == 429 ? refused : served)[b] += a.status() == 0 ? 0 : 1;
                if (a.accepted()) {
                    bought.recordValue((a.startNanos() + a.latencyNanos()) / 1_000_000);
                }
            }
            return new Side(name, bought.getTotalCount(), bought.getValueAtPercentile(50),
                    bought.getValueAtPercentile(90), bought.getMaxValue(), Arrays.stream(served).max().orElse(0),
                    IntStream.range(0, BUCKETS).mapToLong(b -> served[b] + steps[b]).max().orElse(0), n - ended, late,
                    Timeline.outcomes(purchases), served, refused, steps);
        }
    }
}
