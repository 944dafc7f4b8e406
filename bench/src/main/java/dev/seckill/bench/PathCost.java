package dev.seckill.bench;

import dev.seckill.protection.PurchasePaths;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * What a purchase path costs a purchase over HTTP: per round, an unprotected sale against a challenge sale bought
 * through valid paths (the service's {@link PurchasePaths} under the stack's secret), back to back through the edge.
 */
record PathCost(Stack stack, Admin admin, Users users, BenchOptions options) {

    /** The measurements' names: first clicks (202), then the same buyers again once the writer caught up. */
    static final String[][] NAMES = {
            {"unprotected sale, accepted (202)", "challenge sale, valid path, accepted (202)"},
            {"unprotected sale, refused in Redis (409/429)", "challenge sale, valid path, refused in Redis (409/429)"}};

    /** The rounds' measurements in order; each sale and its purchases go to {@code sales}. */
    List<Measured> run(List<Ceilings.PurchaseSale> sales) throws IOException, InterruptedException {
        PurchasePaths minter = new PurchasePaths(stack.tokenSecret(), Duration.ofSeconds(120), Clock.systemUTC());
        List<Measured> rounds = new ArrayList<>();
        int n = users.size();
        for (int r = 1; r <= options.rounds(); r++) {
            Bench.say("protection: purchase cost, round " + r + " of " + options.rounds());
            Instant now = Instant.now().minusSeconds(1);
            long[] sale = {admin.createSale("bench-unprotected-" + System.nanoTime(), n, now, "none", 0),
                    admin.createSale("bench-challenge-" + System.nanoTime(), n, now, "challenge", 13)};
            String[][] paths = {null, IntStream.range(0, n).mapToObj(i -> minter.mint(sale[1], users.id(i)).path())
                    .toArray(String[]::new)};
            List<List<Attempt>> attempts = List.of(new ArrayList<>(), new ArrayList<>());
            for (int k = 0; k < 2 && r == 1; k++) { // the JIT's warm-up of both routes with the last users
                steady(null, sale[k], paths[k], i -> n - 1 - i % n, Duration.ofSeconds(1), attempts.get(k));
            }
            for (int k = 0; k < 2; k++) {
                rounds.add(steady(NAMES[0][k], sale[k], paths[k], i -> i % n, null, attempts.get(k)));
            }
            for (int k = 0; k < 2; k++) {
                int[] buyers = buyers(sale[k], attempts.get(k));
                rounds.add(steady(NAMES[1][k], sale[k], paths[k], i -> buyers[i % buyers.length], null,
                        attempts.get(k)));
                sales.add(new Ceilings.PurchaseSale(sale[k], attempts.get(k)));
            }
        }
        return rounds;
    }

    /** Adds the rounds to the section; returns the ratios of the two sides, accepted and refused. */
    static List<Ratio> addTo(Section s, List<Measured> rounds) {
        List<Ratio> ratios = List.of(Ratio.of(rounds, NAMES[0][1], NAMES[0][0]),
                Ratio.of(rounds, NAMES[1][1], NAMES[1][0]));
        s.text("""
                ### What a purchase path costs a purchase, over HTTP

                Interleaved rounds through the edge, each side half the ceilings' time: a new unprotected and a new \
                `challenge` sale back to back, first clicks (202), then the same buyers again. The paths are valid, \
                so this is what checking one adds. A ratio is the median of the rounds'; 1.0 means no cost.""")
                .table("ratio", "median", "rounds", "of the best rounds");
        ratios.forEach(q -> s.row(q.name(), Section.f("**%.2f**", q.median()), q.rounds(), q.ofBest()));
        s.table("measurement", "req/s", "p50 ms", "p99 ms", "answers");
        rounds.forEach(m -> s.row(m.name(), Section.f("%,.0f", m.rps()), Section.f("%.1f", m.latency().p50()),
                Section.f("%.1f", m.latency().p99()), m.byKind()));
        return ratios;
    }

    /** The distinct buyers of the 202s so far (the warm-up's too), once the writer holds their orders. */
    private int[] buyers(long sale, List<Attempt> all) throws IOException, InterruptedException {
        if (admin.awaitDrained(sale, all.stream().filter(Attempt::accepted).count(), Duration.ofSeconds(120)) == null) {
            Bench.say("protection: the writer did not catch up with sale " + sale + " within 120 s");
        }
        int[] b = all.stream().filter(Attempt::accepted).mapToInt(a -> users.index(a.userId())).distinct().toArray();
        if (b.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale);
        }
        return b;
    }

    /** A round of the i-th purchase by user {@code user(i)}, half the ceilings' time unless {@code d}. */
    private Measured steady(String name, long sale, String[] paths, IntUnaryOperator user, Duration d,
                            List<Attempt> attempts) throws IOException {
        IntFunction<LoadClient.Request> requests = i -> new LoadClient.Request(users.purchase(user.applyAsInt(i), sale,
                paths == null ? null : paths[user.applyAsInt(i)], stack.edgePort()), users.id(user.applyAsInt(i)));
        return Ceilings.steady(stack.edgePort(), options.connections(), name, requests,
                d == null ? options.ceilingTime().dividedBy(2) : d, attempts, true);
    }
}
