package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Measured.Ratio;
import dev.seckill.bench.report.Section;
import dev.seckill.protection.PurchasePaths;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import static dev.seckill.bench.report.Section.f;

/**
 * {@code bench --protection}, the section "protection": a purchase path's cost over HTTP, the in-process costs
 * ({@link ProtectionCosts}), and the challenge's effect on a sale's first seconds ({@link ArrivalCurve}). Each of its
 * sales is checked like the flash sale.
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
        Object jmh = ProtectionCosts.run(section, s.o().out());
        ArrivalCurve.Result arrival = ArrivalCurve.run(section, s, Math.min(s.users().size(), 500));
        return section.data(Map.of("costRounds", cost, "ratios", ratios, "jmh", jmh, "arrival", arrival));
    }

    /** The rounds in order, paths minted as the service does; each sale is checked after its round. */
    private List<Measured> pathCost() throws Exception {
        PurchasePaths minter = new PurchasePaths(s.stack().tokenSecret(), Duration.ofSeconds(120), Clock.systemUTC());
        List<Measured> rounds = new ArrayList<>();
        Users users = s.users();
        int n = users.size();
        Duration half = s.o().ceilingTime().dividedBy(2);
        for (int r = 1; r <= s.o().rounds(); r++) {
            Bench.say("protection: purchase cost, round " + r + " of " + s.o().rounds());
            Instant now = Instant.now().minusSeconds(1);
            long[] sale = {s.admin().createSale("bench-unprotected-" + System.nanoTime(), n, now,
                    Map.of("protection", "none")), s.admin().createSale("bench-challenge-" + System.nanoTime(), n, now,
                    Map.of("protection", "challenge", "challengeBits", 13))};
            String[][] paths = {null, IntStream.range(0, n).mapToObj(i -> minter.mint(sale[1], users.id(i)).path())
                    .toArray(String[]::new)};
            List<List<Attempt>> attempts = List.of(new ArrayList<>(), new ArrayList<>());
            for (int k = 0; k < 2 && r == 1; k++) { // the JIT's warm-up of both routes with the last users
                steady(null, sale[k], paths[k], i -> n - 1 - i % n, Duration.ofSeconds(1), attempts.get(k));
            }
            for (int k = 0; k < 2; k++) {
                rounds.add(steady(NAMES[0][k], sale[k], paths[k], i -> i % n, half, attempts.get(k)));
            }
            for (int k = 0; k < 2; k++) {
                int[] buyers = buyers(sale[k], attempts.get(k));
                rounds.add(steady(NAMES[1][k], sale[k], paths[k], i -> buyers[i % buyers.length], half,
                        attempts.get(k)));
                s.check("protection", sale[k], attempts.get(k), null);
            }
        }
        return rounds;
    }

    /** The distinct buyers of the 202s so far (the warm-up's too), once the writer holds their orders. */
    private int[] buyers(long sale, List<Attempt> all) throws Exception {
        s.awaitDrained("protection", sale, all, Duration.ofSeconds(120));
        int[] b = all.stream().filter(Attempt::accepted).mapToInt(a -> s.users().index(a.userId())).distinct()
                .toArray();
        if (b.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale);
        }
        return b;
    }

    /** A round of {@code d}: the i-th purchase by user {@code user(i)}, through its path when {@code paths}. */
    private Measured steady(String name, long sale, String[] paths, IntUnaryOperator user, Duration d,
                            List<Attempt> attempts) throws Exception {
        int port = s.stack().edgePort();
        return Scenario.steady(port, s.o().connections(), name, i -> new LoadClient.Request(s.users().purchase(
                user.applyAsInt(i), sale, paths == null ? null : paths[user.applyAsInt(i)], port),
                s.users().id(user.applyAsInt(i))), d, attempts, true);
    }
}
