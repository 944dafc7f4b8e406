package dev.seckill.system.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.check.Checker;
import dev.seckill.check.FinalState;
import dev.seckill.check.Op;
import dev.seckill.check.SaleSummary;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.ServiceThreads;
import dev.seckill.testkit.Stampede;
import dev.seckill.testkit.Topology;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One sale under a stampede through the topology's public entry (the edge, or the cluster's load balancer), watched
 * while it runs, then settled (writer caught up, reconcile) and checked against the invariants read from MySQL and
 * Redis directly.
 */
public final class SaleRun {

    private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000L * 1_000_000L + 2_000_000_000_000L);

    final Topology topology;
    final HttpJson http = new HttpJson();
    public final long saleId;
    final List<AnsweredClick> attempts = Collections.synchronizedList(new ArrayList<>());
    private final List<AnsweredClick> probes = Collections.synchronizedList(new ArrayList<>());
    private final TokenSigner signer;
    private final Stampede.Plan plan;
    private Thread runner;
    private long startedNanos;
    private Throwable failure;

    public SaleRun(Topology topology, int stock, int users, int attemptsPerUser, Duration maxDuration) {
        this.topology = topology;
        saleId = new AdminSales(topology, http).sale("fault-").priceCents(500).stock(stock).create();
        signer = new TokenSigner(topology.tokenSecret(), Duration.ofHours(2), Clock.systemUTC());
        List<Stampede.User> crowd = new ArrayList<>();
        long first = USERS.getAndAdd(users);
        for (long u = first; u < first + users; u++) {
            crowd.add(new Stampede.User(u, signer.mint(u)));
        }
        plan = new Stampede.Plan(topology.publicUrl(), saleId, crowd, attemptsPerUser, 128, maxDuration, 300);
    }

    /** A shopper who is in no crowd (a probe), signed in: its user id and bearer token. */
    public Stampede.User newShopper() {
        long u = USERS.getAndIncrement();
        return new Stampede.User(u, signer.mint(u));
    }

    /**
     * One purchase in the sale by a new shopper, sent to {@code baseUrl} (the public entry or one instance directly)
     * from an address of its own: a probe, apart from the crowd's counts, but held by {@link #check} like every click
     * (a probe that bought has a row, and the row is answered for). A connection that failed is status 0.
     */
    public AnsweredClick probe(String baseUrl) {
        Stampede.User shopper = newShopper();
        AnsweredClick a;
        long sent = System.nanoTime();
        try {
            HttpJson.Response r = http.post(baseUrl + "/api/sales/" + saleId + "/purchase", null,
                    "Authorization", HttpJson.bearer(shopper.token()), "X-Forwarded-For", Stampede.address(shopper.id()));
            a = new AnsweredClick(shopper.id(), 0, System.nanoTime() - sent, r.status(), r.json().path("code").asText(null),
                    r.json().path("orderId").asText(null), r.header("X-Seckill-Answered-By") != null,
                    System.currentTimeMillis());
        } catch (java.io.UncheckedIOException e) {
            a = new AnsweredClick(shopper.id(), 0, System.nanoTime() - sent, 0, "NO_ANSWER", null, false,
                    System.currentTimeMillis());
        }
        probes.add(a);
        return a;
    }

    /** At most this many requests of the crowd are in flight at once. */
    public int connections() {
        return plan.connections();
    }

    /** Starts the stampede in the background. */
    public SaleRun start() {
        startedNanos = System.nanoTime();
        runner = Thread.ofPlatform().name("stampede-" + saleId).start(() -> {
            try {
                // Each click is handed over as it completes: the wall clock now is when its answer came (the checker
                // holds a SOLD_OUT against the orders minted by then). Timing it from the stampede's start instead
                // would put it early by however long the stampede took to begin.
                Stampede.run(plan, c -> attempts.add(new AnsweredClick(c.userId(), c.startNanos(), c.latencyNanos(),
                        c.status(), c.code(), c.orderId(), c.byEdge(), System.currentTimeMillis())));
            } catch (Throwable t) {
                failure = t;
            }
        });
        return this;
    }

    boolean started() {
        return runner != null;
    }

    public long count(int status) {
        synchronized (attempts) {
            return attempts.stream().filter(a -> a.status() == status).count();
        }
    }

    /** How many attempts there were, whatever their answer. */
    public long attempts() {
        synchronized (attempts) {
            return attempts.size();
        }
    }

    /** How many attempts started after {@code nanoTime} (System.nanoTime), whatever their answer. */
    public long attemptsSince(long nanoTime) {
        synchronized (attempts) {
            return attempts.stream().filter(a -> startedNanos + a.startNanos() >= nanoTime).count();
        }
    }

    /** How many attempts that started after {@code nanoTime} (System.nanoTime) got {@code status}. */
    public long countSince(long nanoTime, int status) {
        synchronized (attempts) {
            return attempts.stream().filter(a -> startedNanos + a.startNanos() >= nanoTime && a.status() == status)
                    .count();
        }
    }

    /** Polls until at least {@code n} purchases have been accepted. */
    public void awaitAccepted(long n, Duration timeout) {
        try {
            Await.until(timeout, () -> count(202) >= n, n + " accepted purchases in sale " + saleId);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; answers so far " + byCode() + "; " + ServiceThreads.summary(),
                    e);
        }
    }

    /** The crowd's answers so far by status and code ("0 NO_ANSWER": none came). */
    Map<String, Long> byCode() {
        Map<String, Long> by = new TreeMap<>();
        synchronized (attempts) {
            attempts.forEach(a -> by.merge(a.status() + " " + a.code(), 1L, Long::sum));
        }
        return by;
    }

    /** Waits for the stampede to end (it is bounded in time by its plan). */
    public void finish() throws InterruptedException {
        runner.join(plan.maxDuration().toMillis() + 120_000);
        if (runner.isAlive()) {
            throw new AssertionError("the stampede did not end; " + ServiceThreads.summary());
        }
        if (failure != null) {
            throw new AssertionError("the stampede failed", failure);
        }
    }

    private JsonNode stats() {
        return http.get(topology.adminUrl() + "/admin/sales/" + saleId + "/stats",
                "Authorization", HttpJson.bearer(topology.adminToken())).json();
    }

    /** Polls until the service answers and the writers have caught up (no order on the topic left to write). */
    public void awaitWritten(Duration timeout) {
        Await.until(timeout, () -> stats().path("consumerLag").asLong(-1) == 0,
                "the writer to catch up on sale " + saleId);
    }

    /**
     * Settles the sale: waits until the service answers and the writer has caught up, then reconciles (with the
     * shortest grace the service allows) until no reservation is pending; returns every action taken.
     */
    public List<String> settle() {
        awaitWritten(Duration.ofSeconds(120));
        List<String> actions = new ArrayList<>();
        Await.until(Duration.ofSeconds(120), () -> {
            HttpJson.Response r = http.post(topology.adminUrl() + "/admin/sales/" + saleId + "/reconcile?graceSeconds=7",
                    null, "Authorization", HttpJson.bearer(topology.adminToken()));
            if (r.status() != 200) {
                return false;
            }
            r.json().path("actions").forEach(a -> actions.add(a.path("action").asText()));
            return r.json().path("pendingBuyers").asInt() == 0;
        }, "reconcile of sale " + saleId + " to leave nothing pending");
        return actions;
    }

    /**
     * The sale judged by the one checker (docs/invariants.md), read from MySQL and from {@code redis} (the one holding
     * the sale's keys) directly.
     */
    public SaleSummary check(RedissonClient redis) throws Exception {
        try (Connection db = topology.db()) {
            // The stampede records every click, an unanswered one as status 0, and the probes theirs: each row is
            // held against its buyer's answers, and each SOLD_OUT against the units left.
            List<AnsweredClick> all = new ArrayList<>(answers());
            synchronized (probes) {
                all.addAll(probes);
            }
            List<Op> history = AnsweredClick.ops(saleId, all);
            return Checker.check(history, FinalState.read(db, redis, "redis", List.of(saleId))).sale(saleId);
        } finally {
            redis.shutdown();
        }
    }

    /** Users whose last attempt got no answer at all (no status): a dropped request nobody retried. */
    public List<Long> unanswered() {
        Map<Long, AnsweredClick> last = new java.util.HashMap<>();
        synchronized (attempts) {
            attempts.forEach(a -> last.merge(a.userId(), a, (x, y) -> x.startNanos() >= y.startNanos() ? x : y));
        }
        return last.values().stream().filter(a -> a.status() == 0).map(AnsweredClick::userId).sorted().toList();
    }

    /** The counts a scenario prints: accepted (202), refused (another 4xx), unavailable (503), no answer. */
    public String counts() {
        Map<Integer, Long> by = byStatus();
        long refused = by.entrySet().stream().filter(e -> e.getKey() >= 400 && e.getKey() < 500)
                .mapToLong(Map.Entry::getValue).sum();
        return "accepted " + by.getOrDefault(202, 0L) + ", refused " + refused + ", 503 " + by.getOrDefault(503, 0L)
                + ", no answer " + by.getOrDefault(0, 0L);
    }

    /** Every answer so far, in no particular order. */
    public List<AnsweredClick> answers() {
        synchronized (attempts) {
            return List.copyOf(attempts);
        }
    }

    /** Answers by status, for the test output. */
    public Map<Integer, Long> byStatus() {
        Map<Integer, Long> out = new TreeMap<>();
        synchronized (attempts) {
            attempts.forEach(a -> out.merge(a.status(), 1L, Long::sum));
        }
        return out;
    }
}
