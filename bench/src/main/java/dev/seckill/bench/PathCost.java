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

/**
 * What a purchase path costs a purchase over HTTP (issue 15): in each round, purchases of a new unprotected sale
 * against purchases of a new {@code challenge} sale through valid paths, both through the edge, first as accepted
 * first clicks (202) and then, once the writer has caught up, as the same buyers clicking again (refused in Redis:
 * 409 ALREADY_PURCHASED, or 429 once a buyer's per-user bucket is empty). The two sides of a pair run back to
 * back, so each round gives a ratio under one background load.
 *
 * <p>The paths are minted by the bench with the service's own {@link PurchasePaths} under the stack's token secret
 * (as {@link Users} mints tokens): this measures what checking a path adds to a purchase, not the solving before it
 * (that is {@link ProtectionCosts} and {@link ArrivalCurve}).
 */
final class PathCost {

    static final String PLAIN = "unprotected sale, accepted (202)";
    static final String GUARDED = "challenge sale with a valid path, accepted (202)";
    static final String PLAIN_REFUSED = "unprotected sale, refused in Redis (409/429)";
    static final String GUARDED_REFUSED = "challenge sale with a valid path, refused in Redis (409/429)";

    /** The rounds' measurements in order and the sales they made, to be checked like the flash sale. */
    record Result(List<Measured> rounds, List<Ceilings.PurchaseSale> sales) {
    }

    private final Stack stack;
    private final Admin admin;
    private final Users users;
    private final BenchOptions options;
    private final PurchasePaths paths;

    PathCost(Stack stack, Admin admin, Users users, BenchOptions options) {
        this.stack = stack;
        this.admin = admin;
        this.users = users;
        this.options = options;
        // The service's default path lifetime; a round lasts seconds.
        this.paths = new PurchasePaths(stack.tokenSecret(), Duration.ofSeconds(120), Clock.systemUTC());
    }

    Result run() throws IOException, InterruptedException {
        List<Measured> rounds = new ArrayList<>();
        List<Ceilings.PurchaseSale> sales = new ArrayList<>();
        for (int r = 1; r <= options.rounds(); r++) {
            Bench.say("protection: purchase cost, round " + r + " of " + options.rounds());
            long plain = admin.createSale("bench-unprotected-" + r + "-" + System.currentTimeMillis(), users.size(),
                    Instant.now().minusSeconds(1), "none", 0);
            long guarded = admin.createSale("bench-challenge-" + r + "-" + System.currentTimeMillis(), users.size(),
                    Instant.now().minusSeconds(1), "challenge", 13);
            String[] guardedPaths = mint(guarded);
            List<Attempt> plainAttempts = new ArrayList<>();
            List<Attempt> guardedAttempts = new ArrayList<>();
            int n = users.size();
            if (r == 1) {
                // JIT warm-up of both routes with the last users, not measured.
                steady(PLAIN, i -> purchase(plain, n - 1 - (i % n), null), Duration.ofSeconds(1), plainAttempts);
                steady(GUARDED, i -> purchase(guarded, n - 1 - (i % n), guardedPaths), Duration.ofSeconds(1),
                        guardedAttempts);
            }
            int plainWarm = plainAttempts.size();
            int guardedWarm = guardedAttempts.size();
            rounds.add(steady(PLAIN, i -> purchase(plain, i % n, null), options.ceilingTime(), plainAttempts));
            rounds.add(steady(GUARDED, i -> purchase(guarded, i % n, guardedPaths), options.ceilingTime(),
                    guardedAttempts));
            sales.add(new Ceilings.PurchaseSale(plain, plainAttempts));
            sales.add(new Ceilings.PurchaseSale(guarded, guardedAttempts));
            awaitWriter(plain, plainAttempts);
            awaitWriter(guarded, guardedAttempts);
            int[] plainBuyers = buyers(plainAttempts.subList(plainWarm, plainAttempts.size()), plain);
            int[] guardedBuyers = buyers(guardedAttempts.subList(guardedWarm, guardedAttempts.size()), guarded);
            rounds.add(steady(PLAIN_REFUSED, i -> purchase(plain, plainBuyers[i % plainBuyers.length], null),
                    options.ceilingTime(), plainAttempts));
            rounds.add(steady(GUARDED_REFUSED,
                    i -> purchase(guarded, guardedBuyers[i % guardedBuyers.length], guardedPaths),
                    options.ceilingTime(), guardedAttempts));
        }
        return new Result(rounds, sales);
    }

    /** One path per user of the crowd for this sale (an HMAC each: a second for 100,000 users at most). */
    private String[] mint(long sale) {
        String[] p = new String[users.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = paths.mint(sale, users.id(i)).path();
        }
        return p;
    }

    private int[] buyers(List<Attempt> measured, long sale) throws IOException {
        int[] b = measured.stream().filter(Attempt::accepted).mapToInt(a -> users.index(a.userId())).distinct()
                .toArray();
        if (b.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale);
        }
        return b;
    }

    private void awaitWriter(long sale, List<Attempt> attempts) throws IOException, InterruptedException {
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        if (admin.awaitDrained(sale, accepted, Duration.ofSeconds(120)) == null) {
            Bench.say("protection: the writer did not catch up with sale " + sale + " within 120 s");
        }
    }

    private LoadClient.Request purchase(long sale, int i, String[] salePaths) {
        return new LoadClient.Request(users.purchase(i, sale, salePaths == null ? null : salePaths[i],
                stack.edgePort()), users.id(i));
    }

    private Measured steady(String name, IntFunction<LoadClient.Request> requests, Duration d,
                            List<Attempt> attempts) throws IOException {
        return Ceilings.steady(stack.edgePort(), options.connections(), name, requests, d, attempts, true);
    }
}
