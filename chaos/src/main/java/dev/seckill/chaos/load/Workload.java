package dev.seckill.chaos.load;

import dev.seckill.chaos.history.History;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import dev.seckill.identity.TokenSigner;
import dev.seckill.redis.Keys;
import dev.seckill.testkit.ClusterStack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Overlapping flash sales through the load balancers (either, as {@link Entries} routes): first one sale on each Redis master (sales are created until
 * their hash slots land on distinct masters), then a new one every quarter of the run; small stocks (20-60) and short
 * payment windows (15-30 s), so units lapse, come back and are sold again within the run. Buyers arrive all along,
 * each signed in with an HS256 token of the run's secret and a user id of its own, and click 1-3 times with jitter;
 * about 60 % of those who win pay (with an Idempotency-Key, again on a 409 ORDER_NOT_CONFIRMED, a 503 or no answer),
 * the others let the window lapse. Every request is an operation of the {@link History}.
 */
public final class Workload {

    /** Requests in flight at most. */
    public static final int IN_FLIGHT = 48;
    private static final double PAYERS = 0.6;
    private static final int MAX_BUYERS = 400;

    private final ClusterStack cluster;
    private final History history;
    private final Entries entries;
    private final AdminCalls admin;
    private final Random random;
    private final String runId;
    private final Consumer<String> log;
    private final TokenSigner signer;
    private final List<RunSale> sales = new CopyOnWriteArrayList<>();
    private final List<Long> created = new CopyOnWriteArrayList<>();
    private final AtomicLong users;
    /** The buyers not ended yet (platform threads: the load never waits on the JVM's virtual-thread scheduler). */
    private final Set<Thread> buyers = ConcurrentHashMap.newKeySet();
    /** When the run's sales end: well after the workload (set by {@link #open}). */
    private Instant endsAt;

    public Workload(ClusterStack cluster, History history, long seed, String runId, long patienceMillis,
                    Consumer<String> log) {
        this.cluster = cluster;
        this.entries = new Entries(cluster.nodes("lb"), cluster::url, IN_FLIGHT, patienceMillis, log);
        this.history = history;
        this.random = new Random(seed * 31 + 7);
        this.runId = runId;
        this.log = log;
        this.admin = new AdminCalls(cluster, history, runId);
        this.signer = new TokenSigner(cluster.tokenSecret(), Duration.ofHours(6), Clock.systemUTC());
        // Ids of this run only: the millisecond of its start spreads runs apart, far above the tests' and bench's.
        this.users = new AtomicLong(5_000_000_000_000L + System.currentTimeMillis() % 1_000_000L * 1_000_000L);
    }

    public AdminCalls admin() {
        return admin;
    }

    /** The sales the buyers go to. */
    public List<RunSale> sales() {
        return List.copyOf(sales);
    }

    /** Every sale the run created (some only to land the first ones on distinct masters). */
    public List<Long> saleIds() {
        return List.copyOf(created);
    }

    /** The sales before the faults: one per Redis master. */
    public void open(Duration length) {
        endsAt = Instant.now().plus(length).plus(Duration.ofMinutes(30));
        int masters = cluster.redis().masters().size();
        Set<String> used = new HashSet<>();
        for (int tries = 0; used.size() < masters && tries < 4 * masters + 8; tries++) {
            RunSale s = newSale();
            if (s != null && s.master() != null && used.add(s.master())) {
                sales.add(s);
            }
        }
        if (sales.isEmpty()) {
            throw new IllegalStateException("no sale could be created");
        }
    }

    /** A new sale, said in the log; null when no service created it. */
    private RunSale newSale() {
        int stock = 20 + random.nextInt(41);
        int window = 15 + random.nextInt(16);
        long id = admin.createSale("chaos-" + runId + "-" + (created.size() + 1), stock, window, endsAt);
        if (id <= 0) {
            return null;
        }
        created.add(id);
        String master;
        try {
            master = cluster.redis().masterOf(Keys.stock(id)).orElse(null);
        } catch (RuntimeException e) {
            master = null;
        }
        log.accept("sale " + id + " on " + master + ": stock " + stock + ", pay window " + window + " s");
        return new RunSale(id, stock, window, master, System.currentTimeMillis());
    }

    /** Buyers (and a new sale every quarter of the run) until {@code stopMillis}; then waits for their payments. */
    public void run(long stopMillis, Duration length) throws InterruptedException {
        long every = Math.max(40_000, length.toMillis() / 4);
        long nextSale = System.currentTimeMillis() + every;
        while (System.currentTimeMillis() < stopMillis) {
            long now = System.currentTimeMillis();
            if (now >= nextSale && stopMillis - now > 40_000) {
                nextSale = now + every;
                RunSale s = newSale();
                if (s != null) {
                    sales.add(s);
                }
            }
            if (buyers.size() < MAX_BUYERS) {
                RunSale s = sales.get(ThreadLocalRandom.current().nextInt(sales.size()));
                Thread t = Thread.ofPlatform().daemon().name("buyer").unstarted(() -> {
                    try {
                        buyer(s, stopMillis);
                    } finally {
                        buyers.remove(Thread.currentThread());
                    }
                });
                buyers.add(t);
                t.start();
            }
            Thread.sleep(50 + ThreadLocalRandom.current().nextInt(60));
        }
        long deadline = System.currentTimeMillis() + 90_000;
        for (Thread t : List.copyOf(buyers)) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0 || !t.join(Duration.ofMillis(left))) {
                t.interrupt();
            }
        }
        entries.close();
    }

    private void buyer(RunSale sale, long stopMillis) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long user = users.getAndIncrement();
        String[] auth = {"Authorization", "Bearer " + signer.mint(user), "X-Forwarded-For", address(user)};
        int clicks = 1 + r.nextInt(3);
        String won = null;
        for (int i = 0; i < clicks && System.currentTimeMillis() < stopMillis; i++) {
            Entries.Answer a = call(OpKind.PURCHASE, sale.id(), user, null,
                    id -> entries.post("/api/sales/" + sale.id() + "/purchase", null, id, null, auth));
            if (a.cut()) {
                // The page's connection failed or was cut with its entry point: the shopper clicks again at once,
                // and the click reaches the other address (a new request, as a browser's retry is).
                String cut = a.entry();
                a = call(OpKind.PURCHASE, sale.id(), user, null,
                        id -> entries.post("/api/sales/" + sale.id() + "/purchase", null, id, cut, auth));
            }
            if (a.orderId() != null && (a.status() == 202 || a.status() == 409 || a.status() == 503)) {
                won = a.orderId();
                if (a.status() != 503) {
                    break;
                }
            } else if (a.status() == 410) {
                break;
            }
            if (!pause(a.retryAfterSeconds() > 0 ? a.retryAfterSeconds() * 1000 + r.nextInt(300) : 200 + r.nextInt(1300))) {
                return;
            }
        }
        if (won != null && r.nextDouble() < PAYERS) {
            pay(sale, user, won, auth);
        }
    }

    /** Pays one order: the same Idempotency-Key on every try, until an answer that settles it or the window is past. */
    private void pay(RunSale sale, long user, String orderId, String[] auth) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (!pause(1_000 + r.nextInt(Math.max(1, sale.payWindowSeconds() * 1000 / 3)))) {
            return;
        }
        String key = UUID.randomUUID().toString();
        String[] headers = {auth[0], auth[1], auth[2], auth[3], "Idempotency-Key", key};
        long deadline = System.currentTimeMillis() + (sale.payWindowSeconds() + 15) * 1000L;
        while (System.currentTimeMillis() < deadline) {
            Entries.Answer a = call(OpKind.PAY, sale.id(), user, orderId,
                    id -> entries.post("/api/orders/" + orderId + "/pay", null, id, null, headers));
            if (a.status() == 200 || a.status() == 410 || a.status() == 402 || a.status() == 404 || a.status() == 401) {
                return;
            }
            if (!pause(a.retryAfterSeconds() > 0 ? a.retryAfterSeconds() * 1000 : 1000)) {
                return;
            }
        }
    }

    /** One request of a shopper, sent with the X-Request-Id given, and recorded as an operation of the history. */
    private Entries.Answer call(OpKind kind, long saleId, long user, String orderId,
                                Function<String, Entries.Answer> request) {
        long id = history.nextId();
        String requestId = runId + "-" + id;
        long start = System.currentTimeMillis();
        Entries.Answer a = request.apply(requestId);
        history.record(new Op(id, kind, requestId, saleId, user, 0, start, System.currentTimeMillis(), a.status(),
                a.code(), a.orderId() != null ? a.orderId() : orderId, a.entry(), a.http().contract()));
        return a;
    }

    /** A buyer's own address (the load balancer believes X-Forwarded-For from loopback): each has its own limit. */
    private static String address(long user) {
        return "10." + (user >> 16 & 255) + "." + (user >> 8 & 255) + "." + (user & 255);
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
