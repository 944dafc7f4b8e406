package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.BenchOptions;
import dev.seckill.bench.load.Attempt;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Steady;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.load.Wrk;
import dev.seckill.bench.measure.Admin;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.NamedAnswers;
import dev.seckill.bench.measure.Ratio;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.measure.Settled;
import dev.seckill.bench.report.Report;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.redisson.api.RedissonClient;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.seckill.bench.report.Section.f;

/**
 * The machine's ceilings in interleaved rounds, by wrk and the bench client, each counting only the answers it is named
 * after ({@link NamedAnswers}); then redis-benchmark of the purchase script and the writer's batch-vs-row benchmark.
 */
public record Ceilings(Stack stack, Admin admin, Users users, BenchOptions options, Sampler sampler) {

    public static final String RETURN_200 = "nginx return 200";
    public static final String SHORT_CIRCUIT = "sold-out short-circuit";
    public static final String SHORT_CIRCUIT_CLIENT = "sold-out short-circuit, the crowd's requests";
    public static final String TRIVIAL = "trivial proxied route";
    public static final String PURCHASE = "purchase path, accepted (202)";
    public static final String PURCHASE_REFUSED = "purchase path, refused in Redis (409/429)";
    static final long DUMMY_SALE = 999_999_999L;
    static final String TRIVIAL_PATH = "/edge/bench/proxied";
    public static final Set<String> TRIVIAL_ANSWERS = Set.of("200 OK");
    public static final Set<String> ACCEPTED_ANSWERS = Set.of("202 QUEUED");
    public static final Set<String> REFUSED_ANSWERS = Set.of("409 ALREADY_PURCHASED", "429 RATE_LIMITED");
    static final Set<String> SHORT_CIRCUIT_ANSWERS = Set.of("410 SOLD_OUT");

    /** A purchase-path sale, to be checked like the flash sale. */
    public record PurchaseSale(long saleId, List<Attempt> attempts) {
    }

    /** Every round, the best of each, the ratios, redis-benchmark and the writer: the ceilings section's data. */
    public record Result(List<Measured> rounds, Map<String, Measured> best, List<Ratio> ratios, List<Measured> redis,
                  WriterBenchmark.Result writer, @JsonIgnore List<PurchaseSale> sales) {

        @JsonProperty
        String trivialRoute() {
            return "GET " + TRIVIAL_PATH;
        }

        public Section section(BenchOptions o) {
            Section s = new Section("ceilings", "Ceilings, measured in the same run").data(this)
                    .text("Best of %d interleaved rounds of %d s at %d connections (latency of that round; "
                            + "redis-benchmark one run, 50 clients); ratios below. The trivial proxied route is %s.",
                            o.rounds(), o.ceilingTime().toSeconds(), o.connections(), trivialRoute())
                    .table("what", "generator", "best req/s", "p50 ms", "p90 ms", "p99 ms", "max ms",
                            "every round (req/s)", "answers of the best round",
                            "mean ms in the service's Redis script / Kafka send");
            List<Measured> all = Stream.concat(rounds.stream(), redis.stream()).toList();
            for (Measured m : Stream.concat(best.values().stream(), redis.stream()).toList()) {
                Measured.Latency l = m.latency();
                Map<String, Double> in = m.inService();
                s.row(m.name(), m.generator(), f("**%,.0f**", m.rps()), f("%.2f", l.p50()),
                        l.p90() == 0 ? "-" : f("%.2f", l.p90()), f("%.2f", l.p99()), f("%.2f", l.max()),
                        all.stream().filter(x -> x.name().equals(m.name())).map(x -> f("%,.0f", x.rps()))
                                .collect(Collectors.joining(" · ")), m.byKind(),
                        in == null ? "" : f("%.1f / %.1f", in.get("redis_scriptMeanMs"), in.get("kafka_sendMeanMs")));
            }
            return s.text("Batch writer (WriterBenchmark, %d orders in batches of %d): **%,.0f orders/s** batched "
                    + "against %,.0f orders/s row-at-a-time: **%.1f x** (consistent: %s).", writer.orders(),
                    writer.batchSize(), writer.batchedOrdersPerSec(), writer.rowAtATimeOrdersPerSec(), writer.ratio(),
                    writer.consistent()).text("Ratios, the median of the rounds' ratios (the two sides of a round run "
                    + "back to back): %s.", ratios.stream().map(r -> f("%s **%.2f** (rounds %s; of the best rounds "
                    + "%.2f)", r.name(), r.median(), r.rounds(), r.ofBest())).collect(Collectors.joining(" · ")));
        }
    }

    public Result run(RedissonClient redis) throws Exception {
        List<Measured> rounds = new ArrayList<>();
        List<PurchaseSale> sales = new ArrayList<>();
        Bench.say("ceilings: warming up the service paths");
        sampler.mark("ceilings");
        trivial(stack.edgePort(), TRIVIAL_PATH, TRIVIAL, options.connections(), Duration.ofSeconds(2));
        // The dummy sale is flagged sold out for the rounds: the edge must short-circuit every purchase of it.
        admin.soldOutFlag(DUMMY_SALE, (int) (options.rounds() * (6 * options.ceilingTime().toSeconds() + 130)) + 60);
        try {
            for (int r = 1; r <= options.rounds(); r++) {
                Bench.say("ceilings: round " + r + " of " + options.rounds());
                rounds.add(wrk(RETURN_200, "/edge/bench/ok", null));
                double before = admin.edgeMetrics().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0);
                Measured byWrk = wrk(SHORT_CIRCUIT, "/", stack.home().resolve("bench/edge-soldout.lua"));
                Measured byClient = client(SHORT_CIRCUIT_CLIENT, i -> purchase(DUMMY_SALE, i % users.size()), null,
                        SHORT_CIRCUIT_ANSWERS);
                if (admin.edgeMetrics().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0) - before
                        < byWrk.requests() + byClient.requests()) {
                    throw new IOException("not every purchase of a flagged sale was short-circuited");
                }
                rounds.addAll(List.of(byWrk, byClient, trivial(stack.edgePort(), TRIVIAL_PATH, TRIVIAL,
                        options.connections(), options.ceilingTime())));
                rounds.addAll(purchaseRound(r, sales));
            }
        } finally {
            admin.soldOutFlag(DUMMY_SALE, 0);
        }
        Map<String, Measured> best = new LinkedHashMap<>();
        rounds.forEach(m -> best.merge(m.name(), m, (a, b) -> a.rps() >= b.rps() ? a : b));
        List<Ratio> ratios = List.of(Ratio.of(rounds, PURCHASE, TRIVIAL), Ratio.of(rounds, PURCHASE_REFUSED, TRIVIAL),
                Ratio.of(rounds, TRIVIAL, RETURN_200), Ratio.of(rounds, SHORT_CIRCUIT, RETURN_200));
        Bench.say("ceilings: redis-benchmark of the purchase script");
        sampler.mark("redis-benchmark");
        List<Measured> script = ShardCeiling.run(stack, redis, stack.redisPort(), 100_000, true);
        Bench.say("ceilings: batch writer against row-at-a-time (WriterBenchmark)");
        sampler.mark("writer benchmark");
        return new Result(rounds, best, ratios, script, WriterBenchmark.run(stack, 50_000, 5_000, 5), sales);
    }

    /** First clicks on a new sale that cannot sell out (202), then, once the writer caught up, its buyers again. */
    private List<Measured> purchaseRound(int round, List<PurchaseSale> sales) throws Exception {
        int n = users.size();
        long sale = admin.createSale("bench-purchase-path-" + round + "-" + System.currentTimeMillis(), n);
        List<Attempt> attempts = new ArrayList<>();
        sales.add(new PurchaseSale(sale, attempts));
        if (round == 1) {
            steady(stack.edgePort(), options.connections(), PURCHASE, i -> purchase(sale, n - 1 - (i % n)),
                    Duration.ofSeconds(2), attempts, true);
        }
        int warm = attempts.size();
        Map<String, Double> before = admin.serviceMetrics();
        Measured accepted = client(PURCHASE, i -> purchase(sale, i % n), attempts, ACCEPTED_ANSWERS)
                .withInService(inService(before, admin.serviceMetrics()));
        Settled.awaitDrained(admin, "ceilings", sale, attempts, Duration.ofSeconds(120));
        int[] buyers = attempts.subList(warm, attempts.size()).stream().filter(Attempt::accepted)
                .mapToInt(a -> users.index(a.userId())).distinct().toArray();
        if (buyers.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale + ": " + accepted.byStatus());
        }
        Map<String, Double> again = admin.serviceMetrics();
        Measured refused = client(PURCHASE_REFUSED, i -> purchase(sale, buyers[i % buyers.length]), attempts,
                REFUSED_ANSWERS);
        return List.of(accepted, refused.withInService(inService(again, admin.serviceMetrics())));
    }

    /** Calls and mean ms per call of the service's Redis script and Kafka send timers between two scrapes. */
    private static Map<String, Double> inService(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String timer : List.of("redis_script", "kafka_send")) {
            String metric = "seckill_" + timer + "_seconds";
            double calls = after.getOrDefault(metric + "_count", 0.0) - before.getOrDefault(metric + "_count", 0.0);
            double seconds = after.getOrDefault(metric + "_sum", 0.0) - before.getOrDefault(metric + "_sum", 0.0);
            m.put(timer + "Calls", calls);
            m.put(timer + "MeanMs", calls > 0 ? Report.round(seconds * 1000 / calls) : 0.0);
        }
        return m;
    }

    private LoadClient.Request purchase(long sale, int i) {
        return new LoadClient.Request(users.purchase(i, sale, stack.edgePort()), users.id(i));
    }

    /** A round of the bench client; purchase rounds ({@code attempts} given) honour Retry-After. */
    private Measured client(String name, IntFunction<LoadClient.Request> requests, List<Attempt> attempts,
                            Set<String> named) throws IOException {
        return NamedAnswers.require(steady(stack.edgePort(), options.connections(), name, requests,
                options.ceilingTime(), attempts, attempts != null), named);
    }

    /** A round of {@code d} of GET {@code path}, whose answers must be the service's 200. */
    static Measured trivial(int port, String path, String name, int connections, Duration d) throws IOException {
        LoadClient.Request r = new LoadClient.Request(Users.get(path, port), null);
        return NamedAnswers.require(steady(port, connections, name, i -> r, d, null, false), TRIVIAL_ANSWERS);
    }

    /** A closed-loop round of {@code d}; {@code attempts}, when not null, collects each purchase's answer. */
    public static Measured steady(int port, int connections, String name, IntFunction<LoadClient.Request> requests,
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
