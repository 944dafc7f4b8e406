package dev.seckill.bench;

import dev.seckill.testkit.Bodies;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The first seconds of a sale with and without the challenge (issue 15, the seeds' peak-shaving effect): N shoppers,
 * each on a connection opened before the start, click as soon as the sale is on; on the unprotected sale the click is
 * the purchase, on the challenge sale it is challenge, solve, path, purchase. Either way a shopper told 429 tries
 * again after exactly Retry-After, as the sale page does, three purchases at most. The purchases are counted per
 * 100 ms from the start by the moment they were sent, split into those the service answered and those the edge
 * refused (429: the edge's admission or a per-IP limit; a first click never meets the service's per-user limit).
 *
 * <p>A person's device solves the challenge, not the bench's two shared cores: each shopper waits, from the moment
 * its challenge arrived, hashes / rate, where hashes is what its own salt really took (the nonce + 1) and the rate
 * that of the sale page in headless Chromium (25,000 SHA-256/s, ProtectedSalePageIT), so the spread is the one
 * people would see. The sale uses {@link #BITS} bits and the rate is scaled by the same power of two, so the mean
 * solve stays the default difficulty's (13 bits: 8,192 hashes, 0.33 s) while the bench's own CPU does 32 times less
 * work; the time to a solution is geometric with that mean either way. A shopper whose solution the bench had not
 * found by its device's moment is counted late (it then goes on at once).
 */
final class ArrivalCurve {

    static final int BITS = 8;
    static final int DEFAULT_BITS = 13;
    static final double PAGE_HASHES_PER_SECOND = 25_000;
    static final double DEVICE_HASHES_PER_SECOND = PAGE_HASHES_PER_SECOND / (1 << (DEFAULT_BITS - BITS));
    static final Duration BUCKET = Duration.ofMillis(100);
    private static final int MAX_PURCHASES = 3;
    private static final Duration LEAD = Duration.ofSeconds(3);
    /** Each side ends by then: a shopper still busy is cut off and counted failed; its buckets cover as much. */
    private static final Duration BOUND = Duration.ofSeconds(30);
    static final int BUCKETS = (int) (BOUND.toMillis() / BUCKET.toMillis());

    /**
     * One side: purchases sent per bucket, those the service answered and those the edge refused, the busiest
     * bucket of purchases at the service, the challenge and path requests sent per bucket (each one reaches the
     * service too) and the busiest bucket of both together, every purchase's answer by status, the shoppers who
     * got their 202 and the time from the start to it (p50, p90, max, ms), and the shoppers who failed (no
     * connection, a step refused) or were late (see above).
     */
    record Side(String name, int shoppers, long[] sent, long[] served, long[] refusedAtEdge, long peakServed,
                long[] steps, long peakRequests, Map<Integer, Long> answers, long bought, double p50Ms, double p90Ms,
                double maxMs, long failed, long late) {

        long totalServed() {
            return Arrays.stream(served).sum();
        }

        long totalRefused() {
            return Arrays.stream(refusedAtEdge).sum();
        }
    }

    record Result(int shoppers, int bits, double deviceHashesPerSecond, Side plain, Side challenge) {
    }

    private final Stack stack;
    private final Admin admin;
    private final Users users;
    private final List<Ceilings.PurchaseSale> sales = new ArrayList<>();

    ArrivalCurve(Stack stack, Admin admin, Users users) {
        this.stack = stack;
        this.admin = admin;
        this.users = users;
    }

    Result run(int shoppers) throws IOException, InterruptedException {
        Bench.say("protection: arrival curve of " + shoppers + " shoppers clicking at once");
        Side plain = side("clicks at once (unprotected sale)", "none", shoppers);
        Bench.say("protection: arrival curve of " + shoppers + " shoppers solving the challenge first");
        Side challenge = side("challenge first (challenge sale)", "challenge", shoppers);
        return new Result(shoppers, BITS, DEVICE_HASHES_PER_SECOND, plain, challenge);
    }

    /** The sales {@link #run} made, with every purchase as an attempt, to be checked like the flash sale. */
    List<Ceilings.PurchaseSale> sales() {
        return List.copyOf(sales);
    }

    private Side side(String name, String protection, int shoppers) throws IOException, InterruptedException {
        Instant startsAt = Instant.now().plus(LEAD);
        long sale = admin.createSale("bench-arrival-" + protection + "-" + System.currentTimeMillis(), shoppers,
                startsAt, protection, BITS);
        // The start on this JVM's nanosecond clock (the service reads the same wall clock on this machine).
        long start = System.nanoTime() + Duration.between(Instant.now(), startsAt).toNanos();
        ConcurrentLinkedQueue<Attempt> purchases = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> steps = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> boughtAt = new ConcurrentLinkedQueue<>();
        AtomicInteger failed = new AtomicInteger();
        AtomicInteger late = new AtomicInteger();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < shoppers; i++) {
                int user = i;
                all.add(threads.submit(() -> {
                    try {
                        Long at = shop(sale, user, protection.equals("challenge"), start, purchases, steps, late);
                        if (at != null) {
                            boughtAt.add(at);
                        }
                    } catch (IOException | RuntimeException e) {
                        failed.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                try {
                    f.get(BOUND.toSeconds() + LEAD.toSeconds(), TimeUnit.SECONDS);
                } catch (Exception e) {
                    f.cancel(true);
                    failed.incrementAndGet();
                }
            }
        }
        sales.add(new Ceilings.PurchaseSale(sale, List.copyOf(purchases)));
        return summarize(name, shoppers, purchases, steps, new ArrayList<>(boughtAt), failed.get(), late.get());
    }

    /** One shopper; returns the offset (ns) of its 202's answer, or null. */
    private Long shop(long sale, int user, boolean challenge, long start, ConcurrentLinkedQueue<Attempt> purchases,
                      ConcurrentLinkedQueue<Long> steps, AtomicInteger late)
            throws IOException, InterruptedException, NoSuchAlgorithmException {
        String token = users.token(user);
        String address = Users.address(users.id(user));
        try (ShopperConnection c = new ShopperConnection(stack.edgePort())) {
            c.send("GET", "/api/sales/" + sale, null, address, null); // the page loads; the connection stays open
            sleepUntil(start);
            String route = "/api/sales/" + sale + "/purchase";
            if (challenge) {
                route += "/" + solveAndGetPath(c, sale, token, address, start, steps, late);
            }
            for (int attempt = 1; attempt <= MAX_PURCHASES; attempt++) {
                long sent = System.nanoTime();
                ShopperConnection.Answer a = c.send("POST", route, token, address, null);
                long answered = System.nanoTime();
                purchases.add(new Attempt(users.id(user), sent - start, answered - sent, a.status(),
                        Bodies.field(a.body(), "code"), Bodies.field(a.body(), "orderId")));
                if (a.status() == 202) {
                    return answered - start;
                }
                if (a.status() != 429 && a.status() != 503) {
                    return null;
                }
                Thread.sleep(Duration.ofSeconds(Math.max(1, a.retryAfter())));
            }
            return null;
        }
    }

    private String solveAndGetPath(ShopperConnection c, long sale, String token, String address, long start,
                                   ConcurrentLinkedQueue<Long> steps, AtomicInteger late)
            throws IOException, InterruptedException, NoSuchAlgorithmException {
        steps.add(System.nanoTime() - start);
        ShopperConnection.Answer ch = c.send("GET", "/api/sales/" + sale + "/challenge", token, address, null);
        // The service's clock may put the start a few ms after this JVM's: ask again shortly, boundedly.
        for (int i = 0; i < 50 && ch.status() == 409; i++) {
            Thread.sleep(20);
            steps.add(System.nanoTime() - start);
            ch = c.send("GET", "/api/sales/" + sale + "/challenge", token, address, null);
        }
        if (ch.status() != 200) {
            throw new IOException("challenge answered " + ch.status() + ": " + ch.body());
        }
        long issued = System.nanoTime();
        long nonce = ProtectionCosts.solve(MessageDigest.getInstance("SHA-256"), Bodies.field(ch.body(), "salt"),
                Integer.parseInt(Bodies.field(ch.body(), "bits")));
        long device = issued + (long) ((nonce + 1) / DEVICE_HASHES_PER_SECOND * 1e9);
        if (System.nanoTime() > device) {
            late.incrementAndGet();
        }
        sleepUntil(device);
        steps.add(System.nanoTime() - start);
        ShopperConnection.Answer p = c.send("POST", "/api/sales/" + sale + "/path", token, address,
                "{\"challengeId\":\"" + Bodies.field(ch.body(), "challengeId") + "\",\"nonce\":\"" + nonce + "\"}");
        if (p.status() != 200) {
            throw new IOException("path answered " + p.status() + ": " + p.body());
        }
        return Bodies.field(p.body(), "path");
    }

    /** The shoppers act at given moments (the start, a device's solution): a schedule, not a wait for a condition. */
    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            Thread.sleep(Duration.ofNanos(left));
        }
    }

    private static Side summarize(String name, int shoppers, Iterable<Attempt> purchases, Iterable<Long> stepsSent,
                                  List<Long> boughtAt, long failed, long late) {
        long[] sent = new long[BUCKETS];
        long[] served = new long[BUCKETS];
        long[] refused = new long[BUCKETS];
        Map<Integer, Long> answers = new TreeMap<>();
        for (Attempt p : purchases) {
            answers.merge(p.status(), 1L, Long::sum);
            int b = (int) (Math.max(0, p.startNanos()) / BUCKET.toNanos());
            if (b >= BUCKETS) {
                continue;
            }
            sent[b]++;
            if (p.status() == 429) {
                refused[b]++;
            } else if (p.status() != 0) {
                served[b]++;
            }
        }
        long[] steps = new long[BUCKETS];
        for (long at : stepsSent) {
            int b = (int) (Math.max(0, at) / BUCKET.toNanos());
            if (b < BUCKETS) {
                steps[b]++;
            }
        }
        long peakRequests = 0;
        for (int b = 0; b < BUCKETS; b++) {
            peakRequests = Math.max(peakRequests, served[b] + steps[b]);
        }
        long[] ms = boughtAt.stream().mapToLong(n -> n / 1_000_000).sorted().toArray();
        return new Side(name, shoppers, sent, served, refused, Arrays.stream(served).max().orElse(0), steps,
                peakRequests, answers,
                ms.length,
                percentile(ms, 50), percentile(ms, 90), ms.length == 0 ? 0 : ms[ms.length - 1], failed, late);
    }

    private static double percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
