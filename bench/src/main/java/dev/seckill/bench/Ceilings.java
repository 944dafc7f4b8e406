package dev.seckill.bench;

import dev.seckill.bench.writer.WriterBenchmark;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The ceilings of the machine, measured in the same run as the flash sale so that their ratios hold on a noisy
 * machine. Two pairs, each pair measured by one generator, in interleaved rounds (the best round of each counts):
 * <ul>
 * <li>the edge alone (wrk, as bench/edge-ceiling.sh): nginx {@code return 200} ({@code /edge/bench/ok}) against the
 * sold-out short-circuit (bench/edge-soldout.lua on a dummy sale whose flag is set through {@code /edge/flags});</li>
 * <li>through the edge to the service (the bench client): the trivial proxied route ({@code GET /edge/bench/proxied},
 * operator-only, proxied uncached to the service's {@code /api/ping}, a small JSON answer that touches no dependency)
 * against the purchase path, twice: accepted (each request a
 * user's first click on a sale with stock to spare: edge, identity, Redis script, Kafka publish with acks=all, 202)
 * and refused in Redis (the same buyers clicking again: edge, identity, Redis script, 409 ALREADY_PURCHASED or the
 * per-user 429; no Kafka).</li>
 * </ul>
 * Then redis-benchmark of the purchase script and the writer's batch-vs-row benchmark, each once.
 *
 * <p>Each ceiling through the service counts only the answers it is named after ({@link NamedAnswers}): the run fails
 * when fewer than 95 % of a round's answers are those. The bench client honours the edge's {@code Retry-After} in the
 * purchase rounds, as shoppers do, so the edge's admission sheds what it does not take instead of answering a loop of
 * refusals.
 */
final class Ceilings {

    static final String RETURN_200 = "nginx return 200";
    static final String SHORT_CIRCUIT = "sold-out short-circuit";
    static final String SHORT_CIRCUIT_CLIENT = "sold-out short-circuit, the crowd's requests";
    static final String TRIVIAL = "trivial proxied route";
    static final String PURCHASE = "purchase path, accepted (202)";
    static final String PURCHASE_REFUSED = "purchase path, refused in Redis (409/429)";
    static final long DUMMY_SALE = 999_999_999L;
    /** The edge's operator-only location proxied to the service's trivial route. */
    static final String TRIVIAL_PATH = "/edge/bench/proxied";
    /** What each ceiling through the service is named after: the answers it may count. */
    static final Set<String> TRIVIAL_ANSWERS = Set.of("200 OK");
    static final Set<String> ACCEPTED_ANSWERS = Set.of("202 QUEUED");
    static final Set<String> REFUSED_ANSWERS = Set.of("409 ALREADY_PURCHASED", "429 RATE_LIMITED");
    static final Set<String> SHORT_CIRCUIT_ANSWERS = Set.of("410 SOLD_OUT");

    /** A purchase-path sale, to be checked like the flash sale. */
    record PurchaseSale(long saleId, List<Attempt> attempts) {
    }

    record Result(String trivialRoute, List<Measured> rounds, Map<String, Measured> best, List<PurchaseSale> sales,
                  List<Measured> redis, WriterBenchmark.Result writer) {
    }

    private final Stack stack;
    private final Admin admin;
    private final Users users;
    private final BenchOptions options;
    private final Sampler sampler;

    Ceilings(Stack stack, Admin admin, Users users, BenchOptions options, Sampler sampler) {
        this.stack = stack;
        this.admin = admin;
        this.users = users;
        this.options = options;
        this.sampler = sampler;
    }

    Result run(RedissonClient redis) throws IOException, InterruptedException, SQLException {
        List<Measured> rounds = new ArrayList<>();
        List<PurchaseSale> sales = new ArrayList<>();
        Duration d = options.ceilingTime();
        Bench.say("ceilings: warming up the service paths");
        sampler.mark("ceilings");
        NamedAnswers.require(steady(TRIVIAL, trivial(), Duration.ofSeconds(2), null), TRIVIAL_ANSWERS);
        for (int r = 1; r <= options.rounds(); r++) {
            Bench.say("ceilings: round " + r + " of " + options.rounds());
            rounds.add(wrk(RETURN_200, "/edge/bench/ok", null));
            rounds.addAll(shortCircuit(d));
            rounds.add(NamedAnswers.require(steady(TRIVIAL, trivial(), d, null), TRIVIAL_ANSWERS));
            rounds.addAll(purchaseRound(r, sales));
        }
        Map<String, Measured> best = new LinkedHashMap<>();
        for (Measured m : rounds) {
            best.merge(m.name(), m, (a, b) -> a.rps() >= b.rps() ? a : b);
        }
        Bench.say("ceilings: redis-benchmark of the purchase script");
        sampler.mark("redis-benchmark");
        List<Measured> redisResults = RedisCeiling.run(stack, redis, stack.redisPort(), 100_000);
        Bench.say("ceilings: batch writer against row-at-a-time (WriterBenchmark)");
        sampler.mark("writer benchmark");
        WriterBenchmark.Result writer = WriterBenchmark.run(stack, WriterBenchmark.Options.of(50_000));
        return new Result(TRIVIAL_PATH, rounds, best, sales, redisResults, writer);
    }

    /**
     * Purchases of a dummy sale whose flag is set for just these runs, every one of which must be short-circuited:
     * by wrk (bare purchases, against wrk's return 200), then by the bench client with the crowd's own requests
     * (token, X-Forwarded-For), which is what the flood after a sell-out can reach with this client on this machine.
     */
    private List<Measured> shortCircuit(Duration d) throws IOException, InterruptedException {
        admin.soldOutFlag(DUMMY_SALE, (int) (2 * d.toSeconds()) + 60);
        try {
            double before = admin.edgeMetrics().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0);
            Measured byWrk = wrk(SHORT_CIRCUIT, "/", stack.home().resolve("bench/edge-soldout.lua"));
            int n = users.size();
            Measured byClient = NamedAnswers.require(steady(SHORT_CIRCUIT_CLIENT,
                    i -> purchase(DUMMY_SALE, i % n, stack.edgePort()), d, null), SHORT_CIRCUIT_ANSWERS);
            double answered = admin.edgeMetrics().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0) - before;
            if (answered < byWrk.requests() + byClient.requests()) {
                throw new IOException("only " + answered + " of " + (byWrk.requests() + byClient.requests())
                        + " purchases of a flagged sale were short-circuited");
            }
            return List.of(byWrk, byClient);
        } finally {
            admin.soldOutFlag(DUMMY_SALE, 0);
        }
    }

    /**
     * A purchase round on a new sale that cannot sell out: first clicks (202), then, once the writer has caught up,
     * the buyers clicking again (409).
     */
    private List<Measured> purchaseRound(int round, List<PurchaseSale> sales) throws IOException, InterruptedException {
        long sale = admin.createSale("bench-purchase-path-" + round + "-" + System.currentTimeMillis(), users.size());
        List<Attempt> attempts = new ArrayList<>();
        int port = stack.edgePort();
        int n = users.size();
        if (round == 1) {
            purchases(PURCHASE, i -> purchase(sale, n - 1 - (i % n), port), Duration.ofSeconds(2), attempts);
        }
        int warm = attempts.size();
        Map<String, Double> before = admin.serviceMetrics();
        Measured accepted = NamedAnswers.require(purchases(PURCHASE, i -> purchase(sale, i % n, port),
                options.ceilingTime(), attempts).withInService(inService(before, admin.serviceMetrics())),
                ACCEPTED_ANSWERS);
        sales.add(new PurchaseSale(sale, attempts));
        awaitWriter(sale, attempts);
        int[] buyers = attempts.subList(warm, attempts.size()).stream().filter(Attempt::accepted)
                .mapToInt(a -> users.index(a.userId())).distinct().toArray();
        if (buyers.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale + ": " + accepted.byStatus());
        }
        before = admin.serviceMetrics();
        Measured refused = NamedAnswers.require(purchases(PURCHASE_REFUSED,
                i -> purchase(sale, buyers[i % buyers.length], port), options.ceilingTime(), attempts)
                .withInService(inService(before, admin.serviceMetrics())), REFUSED_ANSWERS);
        return List.of(accepted, refused);
    }

    /** The writer's catching up with a purchase round must not load the next measurement. */
    private void awaitWriter(long sale, List<Attempt> attempts) throws IOException, InterruptedException {
        long accepted = attempts.stream().filter(Attempt::accepted).count();
        if (admin.awaitDrained(sale, accepted, Duration.ofSeconds(120)) == null) {
            Bench.say("ceilings: the writer did not catch up with sale " + sale + " within 120 s");
        }
    }

    /** Mean ms per call of the service's Redis script and Kafka send timers between two scrapes. */
    private static Map<String, Double> inService(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String timer : List.of("seckill_redis_script_seconds", "seckill_kafka_send_seconds")) {
            double calls = after.getOrDefault(timer + "_count", 0.0) - before.getOrDefault(timer + "_count", 0.0);
            double seconds = after.getOrDefault(timer + "_sum", 0.0) - before.getOrDefault(timer + "_sum", 0.0);
            String name = timer.replace("seckill_", "").replace("_seconds", "");
            m.put(name + "Calls", calls);
            m.put(name + "MeanMs", calls > 0 ? Report.round(seconds * 1000 / calls) : 0.0);
        }
        return m;
    }

    private LoadClient.Request purchase(long sale, int i, int port) {
        return new LoadClient.Request(users.purchase(i, sale, port), users.id(i));
    }

    private IntFunction<LoadClient.Request> trivial() {
        LoadClient.Request r = new LoadClient.Request(Users.get(TRIVIAL_PATH, stack.edgePort()), null);
        return i -> r;
    }

    /** A purchase round: as {@link #steady}, each connection waiting out the edge's Retry-After when refused. */
    private Measured purchases(String name, IntFunction<LoadClient.Request> requests, Duration d,
                               List<Attempt> attempts) throws IOException {
        return steady(stack.edgePort(), options.connections(), name, requests, d, attempts, true);
    }

    private Measured steady(String name, IntFunction<LoadClient.Request> requests, Duration d,
                            List<Attempt> attempts) throws IOException {
        return steady(stack.edgePort(), options.connections(), name, requests, d, attempts, false);
    }

    /**
     * One closed-loop round of {@code d} to {@code port} on {@code connections} connections (PathCost measures its
     * rounds the same way); {@code attempts}, when not null, collects each purchase's answer; with
     * {@code honourRetryAfter} a connection the edge refused waits out its Retry-After.
     */
    static Measured steady(int port, int connections, String name, IntFunction<LoadClient.Request> requests,
                           Duration d, List<Attempt> attempts, boolean honourRetryAfter) throws IOException {
        long t0 = System.nanoTime();
        Steady s = new Steady(requests, t0, t0 + d.toNanos(), attempts);
        if (honourRetryAfter) {
            s.honouringRetryAfter(connections);
        }
        LoadClient.run(new InetSocketAddress("127.0.0.1", port), connections, s,
                t0 + d.toNanos() + Duration.ofSeconds(10).toNanos(), Duration.ofSeconds(10));
        return s.result(name);
    }

    private Measured wrk(String name, String path, Path script) throws IOException, InterruptedException {
        return Wrk.run(name, stack.edgeUrl() + path, 2, options.connections(), options.ceilingTime(), script,
                Map.of("SALE_ID", Long.toString(DUMMY_SALE)));
    }
}
