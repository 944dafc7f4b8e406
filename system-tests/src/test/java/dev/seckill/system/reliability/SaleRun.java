package dev.seckill.system.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.bench.Attempt;
import dev.seckill.bench.Invariants;
import dev.seckill.bench.Stampede;
import dev.seckill.bench.StackRedis;
import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One sale under a stampede through the edge, watched while it runs, then settled (writer caught up, reconcile)
 * and checked against the invariants read from MySQL and Redis directly.
 */
final class SaleRun {

    private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000L * 1_000_000L + 2_000_000_000_000L);

    final Stack stack = Stack.get();
    final HttpJson http = new HttpJson();
    final long saleId;
    final List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
    private final Stampede.Plan plan;
    private Thread runner;
    private Throwable failure;

    SaleRun(int stock, int users, int attemptsPerUser, Duration maxDuration) {
        Instant now = Instant.now();
        HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales", "{\"name\":\"fault-" + System.nanoTime()
                        + "\",\"priceCents\":500,\"stock\":" + stock + ",\"startsAt\":\"" + now.minusSeconds(1)
                        + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\"}",
                "Authorization", HttpJson.bearer(stack.adminToken()));
        if (r.status() != 201) {
            throw new AssertionError("failed to create a sale: " + r.body());
        }
        saleId = r.json().path("id").asLong();
        TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(2), Clock.systemUTC());
        List<Stampede.User> crowd = new ArrayList<>();
        long first = USERS.getAndAdd(users);
        for (long u = first; u < first + users; u++) {
            crowd.add(new Stampede.User(u, signer.mint(u)));
        }
        plan = new Stampede.Plan(stack.edgeUrl(), saleId, crowd, attemptsPerUser, 128, maxDuration, 300);
    }

    /** Starts the stampede in the background. */
    SaleRun start() {
        runner = Thread.ofPlatform().name("stampede-" + saleId).start(() -> {
            try {
                Stampede.run(plan, attempts);
            } catch (Throwable t) {
                failure = t;
            }
        });
        return this;
    }

    long count(int status) {
        synchronized (attempts) {
            return attempts.stream().filter(a -> a.status() == status).count();
        }
    }

    /** Polls until at least {@code n} purchases have been accepted. */
    void awaitAccepted(long n, Duration timeout) {
        Await.until(timeout, () -> count(202) >= n, n + " accepted purchases in sale " + saleId);
    }

    /** Waits for the stampede to end (it is bounded in time by its plan). */
    void finish() throws InterruptedException {
        runner.join(plan.maxDuration().toMillis() + 120_000);
        if (runner.isAlive()) {
            throw new AssertionError("the stampede did not end");
        }
        if (failure != null) {
            throw new AssertionError("the stampede failed", failure);
        }
    }

    private JsonNode stats() {
        return http.get(stack.adminUrl() + "/admin/sales/" + saleId + "/stats",
                "Authorization", HttpJson.bearer(stack.adminToken())).json();
    }

    /**
     * Settles the sale: waits until the service answers and the writer has caught up, then reconciles (with the
     * shortest grace the service allows) until no reservation is pending; returns every action taken.
     */
    List<String> settle() {
        Await.until(Duration.ofSeconds(120), () -> stats().path("consumerLag").asLong(-1) == 0,
                "the writer to catch up on sale " + saleId);
        List<String> actions = new ArrayList<>();
        Await.until(Duration.ofSeconds(120), () -> {
            HttpJson.Response r = http.post(stack.adminUrl() + "/admin/sales/" + saleId + "/reconcile?graceSeconds=7",
                    null, "Authorization", HttpJson.bearer(stack.adminToken()));
            if (r.status() != 200) {
                return false;
            }
            r.json().path("actions").forEach(a -> actions.add(a.path("action").asText()));
            return r.json().path("pendingBuyers").asInt() == 0;
        }, "reconcile of sale " + saleId + " to leave nothing pending");
        return actions;
    }

    /** The invariant check, read from MySQL and Redis directly. */
    Invariants.Report check() throws Exception {
        RedissonClient redis = StackRedis.connect(stack);
        try (Connection db = stack.db()) {
            return Invariants.check(db, redis, saleId, new ArrayList<>(attempts));
        } finally {
            redis.shutdown();
        }
    }

    /** Users whose last attempt got no answer at all (no status): a dropped request nobody retried. */
    List<Long> unanswered() {
        Map<Long, Attempt> last = new java.util.HashMap<>();
        synchronized (attempts) {
            attempts.forEach(a -> last.merge(a.userId(), a, (x, y) -> x.startNanos() >= y.startNanos() ? x : y));
        }
        return last.values().stream().filter(a -> a.status() == 0).map(Attempt::userId).sorted().toList();
    }

    /** Answers by status, for the test output. */
    Map<Integer, Long> byStatus() {
        Map<Integer, Long> out = new TreeMap<>();
        synchronized (attempts) {
            attempts.forEach(a -> out.merge(a.status(), 1L, Long::sum));
        }
        return out;
    }
}
