package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Generators;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.measure.Measured.Ratio;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.IOException;
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
import static dev.seckill.bench.report.Section.round;

/**
 * The machine's ceilings in interleaved rounds, by wrk (bench/ceilings.sh, its reports kept in {@value #DIR}) and the
 * bench client, each counting only the answers it is named after ({@link Measured#require}); then redis-benchmark of
 * the purchase script and the writer's batch-vs-row benchmark. Its purchase-path sales are checked like the flash sale.
 */
public record Ceilings(Scenario s) {

    public static final String RETURN_200 = "nginx return 200";
    public static final String SHORT_CIRCUIT = "sold-out short-circuit";
    public static final String SHORT_CIRCUIT_CLIENT = "sold-out short-circuit, the crowd's requests";
    public static final String TRIVIAL = "trivial proxied route";
    public static final String PURCHASE = "purchase path, accepted (202)";
    public static final String PURCHASE_REFUSED = "purchase path, refused in Redis (409/429)";
    static final long DUMMY_SALE = 999_999_999L;
    /** The generators' own reports (bench/ceilings.sh), in this directory of the report's. */
    public static final String DIR = "ceilings";
    static final String REPORTS = "round-*.wrk.txt";
    static final String TRIVIAL_PATH = "/edge/bench/proxied";
    public static final Set<String> ACCEPTED_ANSWERS = Set.of("202 QUEUED");
    public static final Set<String> REFUSED_ANSWERS = Set.of("409 ALREADY_PURCHASED", "429 RATE_LIMITED");
    static final Set<String> SHORT_CIRCUIT_ANSWERS = Set.of("410 SOLD_OUT");

    /** Every round, the best of each, the ratios, redis-benchmark and the writer: the ceilings section's data. */
    public record Result(List<Measured> rounds, Map<String, Measured> best, List<Ratio> ratios, List<Measured> redis,
                         WriterBenchmark writer) {

        @JsonProperty
        String trivialRoute() {
            return "GET " + TRIVIAL_PATH;
        }

        /** The section, with the ceilings' targets: each ratio's, the purchase path's p99, the batch writer's. */
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
            for (String path : List.of(PURCHASE, PURCHASE_REFUSED)) {
                goal(s, path + " through the edge vs the edge-proxied trivial route", path, TRIVIAL,
                        path.equals(PURCHASE) ? 0.5 : 0.7);
                if (best.containsKey(path)) {
                    s.millis(path + ": p99 at " + o.connections() + " connections", best.get(path).latency().p99(), 50);
                }
            }
            goal(s, "edge-proxied trivial route vs nginx return 200 alone", TRIVIAL, RETURN_200, 0.3);
            goal(s, "sold-out short-circuit vs nginx return 200", SHORT_CIRCUIT, RETURN_200, 0.95);
            return writer.addTo(s).text("Ratios, the median of the rounds' ratios (the two sides of a round run "
                    + "back to back): %s.", ratios.stream().map(r -> f("%s **%.2f** (rounds %s; of the best rounds "
                    + "%.2f)", r.name(), r.median(), r.rounds(), r.ofBest())).collect(Collectors.joining(" · ")));
        }

        /** The median over the rounds of top / bottom, against {@code min}; none without that ratio. */
        private void goal(Section s, String name, String top, String bottom, double min) {
            ratios.stream().filter(x -> x.name().equals(top + " / " + bottom)).findFirst().ifPresent(r -> s.goal(name,
                    f("%.2f x (rounds %s; best %,.0f vs %,.0f req/s)", r.median(), r.rounds().stream()
                            .map(x -> f("%.2f", x)).collect(Collectors.joining(" · ")), best.get(top).rps(),
                            best.get(bottom).rps()), ">= " + min + " x", r.median() >= min));
        }
    }

    /** The bench's step (unless --no-ceilings), the ceilings first so that they measure a quiet stack. */
    public static List<Section> step(Scenario s) throws Exception {
        if (!s.o().ceilings()) {
            return List.of();
        }
        Result r = new Ceilings(s).run();
        s.found().shortCircuitCeiling(r.best().get(SHORT_CIRCUIT_CLIENT).rps());
        return List.of(r.section(s.o()));
    }

    public Result run() throws Exception {
        BenchOptions o = s.o();
        List<Measured> rounds = new ArrayList<>();
        Progress.say("ceilings: warming up the service paths");
        s.sampler().mark("ceilings");
        Scenario.trivial(edge(), TRIVIAL_PATH, TRIVIAL, o.connections(), Duration.ofSeconds(2));
        // The dummy sale is flagged sold out for the rounds: the edge must short-circuit every purchase of it.
        soldOutFlag((int) (o.rounds() * (6 * o.ceilingTime().toSeconds() + 130)) + 60);
        try {
            for (int r = 1; r <= o.rounds(); r++) {
                Progress.say("ceilings: round " + r + " of " + o.rounds());
                rounds.add(wrk(r, RETURN_200, "/edge/bench/ok", null));
                double before = s.meters().edge().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0);
                Measured byWrk = wrk(r, SHORT_CIRCUIT, "/", s.stack().home().resolve("bench/edge-soldout.lua"));
                Measured byClient = client(SHORT_CIRCUIT_CLIENT, i -> s.purchase(DUMMY_SALE, i % s.users().size(),
                        edge()), null, SHORT_CIRCUIT_ANSWERS);
                if (s.meters().edge().getOrDefault(Sampler.SHORT_CIRCUITS, 0.0) - before
                        < byWrk.requests() + byClient.requests()) {
                    throw new IOException("not every purchase of a flagged sale was short-circuited");
                }
                rounds.addAll(List.of(byWrk, byClient, Scenario.trivial(edge(), TRIVIAL_PATH, TRIVIAL,
                        o.connections(), o.ceilingTime())));
                rounds.addAll(purchaseRound(r));
            }
        } finally {
            soldOutFlag(0);
        }
        Map<String, Measured> best = new LinkedHashMap<>();
        rounds.forEach(m -> best.merge(m.name(), m, (a, b) -> a.rps() >= b.rps() ? a : b));
        List<Ratio> ratios = List.of(Ratio.of(rounds, PURCHASE, TRIVIAL), Ratio.of(rounds, PURCHASE_REFUSED, TRIVIAL),
                Ratio.of(rounds, TRIVIAL, RETURN_200), Ratio.of(rounds, SHORT_CIRCUIT, RETURN_200));
        Progress.say("ceilings: redis-benchmark of the purchase script");
        s.sampler().mark("redis-benchmark");
        List<Measured> script = ShardCeiling.run(s.stack(), s.redis(), s.stack().redisPort(), 100_000, true,
                reports());
        // The batch writer against row-at-a-time: JMH's figures, measured by bin/lib/bench.sh before this run.
        return new Result(rounds, best, ratios, script, WriterBenchmark.of(Jmh.read(o.out())));
    }

    /**
     * First clicks on a new sale that cannot sell out (202), then, once the writer caught up, its buyers (the warm-up's
     * too) again; the sale is checked like the flash sale.
     */
    private List<Measured> purchaseRound(int round) throws Exception {
        int n = s.users().size();
        long sale = s.sale("purchase-path-" + round, n);
        List<AnsweredClick> attempts = new ArrayList<>();
        if (round == 1) {
            Scenario.steady(edge(), s.o().connections(), PURCHASE, i -> s.purchase(sale, n - 1 - (i % n), edge()),
                    Duration.ofSeconds(2), attempts, true);
        }
        Map<String, Double> before = s.meters().service();
        Measured accepted = client(PURCHASE, i -> s.purchase(sale, i % n, edge()), attempts, ACCEPTED_ANSWERS)
                .withInService(inService(before, s.meters().service()));
        int[] buyers = s.buyers("ceilings", sale, attempts);
        Map<String, Double> again = s.meters().service();
        Measured refused = client(PURCHASE_REFUSED, i -> s.purchase(sale, buyers[i % buyers.length], edge()),
                attempts, REFUSED_ANSWERS);
        s.check("purchase path", sale, attempts, null);
        return List.of(accepted, refused.withInService(inService(again, s.meters().service())));
    }

    /** Calls and mean ms per call of the service's Redis script and Kafka send timers between two scrapes. */
    private static Map<String, Double> inService(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (String timer : List.of("redis_script", "kafka_send")) {
            String metric = "seckill_" + timer + "_seconds";
            double calls = after.getOrDefault(metric + "_count", 0.0) - before.getOrDefault(metric + "_count", 0.0);
            double seconds = after.getOrDefault(metric + "_sum", 0.0) - before.getOrDefault(metric + "_sum", 0.0);
            m.put(timer + "Calls", calls);
            m.put(timer + "MeanMs", calls > 0 ? round(seconds * 1000 / calls) : 0.0);
        }
        return m;
    }

    /** Sets (ttlSeconds > 0) or clears (0) the edge's sold-out flag of the dummy sale. */
    private void soldOutFlag(int ttlSeconds) throws IOException {
        String url = s.stack().edgeUrl() + "/edge/flags/sold-out/" + DUMMY_SALE;
        Meters.require(s.meters().http().attempt(ttlSeconds > 0 ? "PUT" : "DELETE", ttlSeconds > 0 ? url + "?ttl="
                + ttlSeconds : url, null).join(), 200, "sold-out flag of " + DUMMY_SALE);
    }

    private int edge() {
        return s.stack().edgePort();
    }

    /** A round of the bench client; purchase rounds ({@code attempts} given) honour Retry-After. */
    private Measured client(String name, IntFunction<LoadClient.Request> requests, List<AnsweredClick> attempts,
                            Set<String> named) throws Exception {
        return Scenario.steady(edge(), s.o().connections(), name, requests, s.o().ceilingTime(), attempts,
                attempts != null).require(named);
    }

    /** A round of wrk, its report kept as {@value #REPORTS} (the round, the name's words joined by dashes). */
    private Measured wrk(int round, String name, String path, Path script) throws IOException, InterruptedException {
        String file = REPORTS.replace("*", round + "-" + name.replaceAll("[^a-z0-9]+", "-"));
        return Generators.wrk(s.stack(), reports().resolve(file), name, s.stack().edgeUrl() + path,
                s.o().connections(), s.o().ceilingTime(), script, Map.of("SALE_ID", Long.toString(DUMMY_SALE)));
    }

    /** Where the generators' own reports go: {@value #DIR} beside the report. */
    private Path reports() {
        return s.o().out().toAbsolutePath().resolve(DIR);
    }
}
