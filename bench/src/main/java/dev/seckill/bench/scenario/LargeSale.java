package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.Crowd;
import dev.seckill.bench.load.ShopIdentity;
import dev.seckill.bench.load.Users;
import dev.seckill.check.SaleSummary;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.ProfileWindow;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.load.Timeline;
import dev.seckill.bench.report.Section;
import dev.seckill.breaker.Outcomes;
import dev.seckill.config.ServiceConfig;
import dev.seckill.event.OrderEvent;
import dev.seckill.purchase.KafkaSettings;
import dev.seckill.purchase.OrderPublisher;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.helidon.config.ConfigSources;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.n;
import static dev.seckill.bench.report.Section.round;

/**
 * The large sale as shoppers meet it: {@value #STOCK} units, {@value #BUYERS} distinct buyers clicking as the sale page
 * does (a 429 or 503 waits out its Retry-After, SOLD_OUT stops, {@value #CLICKS} clicks at most), through the edge,
 * then a new sale straight to the service; each component's CPU per accepted order beside what each part of an order
 * costs alone, each part in its own CPU window (and beside them the service's trivial route straight to its port).
 */
public final class LargeSale {

    public static final int STOCK = 100_000;
    static final int BUYERS = 200_000;
    public static final int CLICKS = 10;
    public static final String VIA_EDGE = "through the edge";
    public static final String STRAIGHT = "straight to the service";
    public static final String TRIVIAL = "a proxied trivial request";
    static final String SCRIPT = "a purchase-script call (one buyer)";
    static final String RECORD = "a Kafka record produced and acknowledged";
    static final String ROW = "a row written (batch path)";
    static final String TOPIC = "seckill.bench.parts";

    /** {@code unitsPerSecond}: 202s over the time to the last one (to the end when it did not sell out). */
    public record Run(String route, long saleId, int connections, long answers, long accepted, Double sellOutSeconds,
                      double unitsPerSecond, Map<String, Long> byKind, Measured.Latency latency,
                      Sampler.PerUnit cpu, int reconciled, SaleSummary invariants) {
    }

    /** One component's CPU per accepted order (µs): in each run, its part alone, through the edge over alone. */
    public record Row(String component, Double viaEdge, Double straight, Double alone, Double overAlone) {
    }

    /** Each part's window, each component's cost per order alone (µs), and the two trivial routes. */
    public record Parts(List<Sampler.PerUnit> parts, Map<String, Double> alonePerOrder, Measured trivialProxied,
                        Measured trivialStraight) {

        public double sum() {
            return alonePerOrder.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /**
     * Both runs (through the edge, then straight) and the parts alone: the large sale's section; the signed runs, with
     * a section of their own, beside it.
     */
    public record Result(List<Run> runs, Parts parts, @JsonIgnore SignInCost.Result signIn) {

        /** Through the edge over straight to the service, units per second; null when straight sold nothing. */
        @JsonProperty
        Double edgeOverStraight() {
            return runs.get(1).unitsPerSecond() == 0 ? null
                    : round(runs.get(0).unitsPerSecond() / runs.get(1).unitsPerSecond());
        }

        /** The machine's CPU per accepted order through the edge over the sum of the parts alone; null without. */
        public Double wholeOverParts() {
            return parts.sum() <= 0 ? null : runs.get(0).cpu().machineMicrosPerUnit() / parts.sum();
        }

        @JsonProperty
        List<Row> cpuPerAcceptedOrder() {
            Stream<String> components = Stream.concat(Sampler.COMPONENTS.stream(), Stream.of(Sampler.BENCH, "others"));
            List<Row> rows = new ArrayList<>(components.distinct().map(c -> row(c, runs.get(0).cpu().microsPerUnit()
                    .get(c), runs.get(1).cpu().microsPerUnit().get(c), parts.alonePerOrder().get(c))).toList());
            rows.add(row("whole machine", runs.get(0).cpu().machineMicrosPerUnit(),
                    runs.get(1).cpu().machineMicrosPerUnit(), round(parts.sum())));
            return rows;
        }

        private static Row row(String component, Double edge, Double straight, Double alone) {
            return new Row(component, edge, straight, alone,
                    edge != null && alone != null && alone > 0 ? round(edge / alone) : null);
        }

        /** The section, with its targets: each route against its trivial route, the edge against straight, the CPU. */
        public Section section() {
            Section s = new Section("largeSale", "Large sale: selling at the speed of the parts").data(this)
                    .text("%,d units, %,d buyers clicking as the sale page does (%d clicks at most); units/s: 202s "
                            + "over the time to the last 202 (bench/README.md).", STOCK, BUYERS, CLICKS)
                    .table("route", "connections", "units sold/s", "sold out after", "answers by kind", "p50", "p99",
                            "reconcile actions", "invariants");
            for (Run r : runs) {
                s.row(r.route(), r.connections(), f("%,.0f", r.unitsPerSecond()), r.sellOutSeconds() == null
                        ? "not sold out" : f("%.2f s", r.sellOutSeconds()), r.byKind(), f("%.1f ms",
                        r.latency().p50()), f("%.1f ms", r.latency().p99()), r.reconciled(),
                        r.invariants().ok() ? "hold" : "VIOLATED: " + r.invariants().violationLines());
            }
            s.text("Through the edge / straight to the service: **%s x** units per second.",
                    n("%.2f", edgeOverStraight()))
                    .text("### CPU per accepted order, by component (µs), beside each part of an order alone");
            for (Sampler.PerUnit p : parts.parts()) {
                s.text("- *%s*: %,d in %.1f s, per unit %s", p.window(), p.units(), p.seconds(), p.microsPerUnit());
            }
            s.table("component", "through the edge", "straight", "its part alone", "through the edge / alone");
            for (Row r : cpuPerAcceptedOrder()) {
                s.row(r.component(), n("%.1f", r.viaEdge()), n("%.1f", r.straight()), n("%.1f", r.alone()),
                        n("%.2f x", r.overAlone()));
            }
            Run edge = runs.get(0);
            Run straight = runs.get(1);
            s.versus("large sale through the edge: units sold/s vs the trivial proxied route", edge.unitsPerSecond(),
                    parts.trivialProxied().rps(), "units/s vs %,.0f req/s", 0.15);
            s.versus("large sale straight to the service: units sold/s vs its trivial route straight",
                    straight.unitsPerSecond(), parts.trivialStraight().rps(), "units/s vs %,.0f req/s", 0.2);
            if (edgeOverStraight() != null) {
                s.versus("large sale: units sold/s through one edge vs straight to the service",
                        edge.unitsPerSecond(), straight.unitsPerSecond(), "vs %,.0f units/s", 0.85);
            }
            Double whole = wholeOverParts();
            if (whole != null) {
                s.goal("large sale through the edge: CPU per accepted order vs the sum of its parts alone",
                        f("%.2f x (%,.0f vs %,.0f µs)", whole, edge.cpu().machineMicrosPerUnit(), parts.sum()),
                        "<= 1.4 x", whole <= 1.4);
            }
            Map<String, Double> sale = edge.cpu().microsPerUnit();
            Map<String, Double> trivial = parts.parts().getFirst().microsPerUnit();
            atMost(s, "large sale through the edge: the service's CPU per accepted order vs per trivial proxied request",
                    sale.get("service"), trivial.get("service"), 2);
            // Every purchase the edge answered (its own 429s and SOLD_OUTs too), not only the 202s.
            atMost(s, "large sale through the edge: the edge's CPU per answered purchase vs per trivial proxied request",
                    sale.get("edge") == null || edge.answers() == 0 ? null
                            : sale.get("edge") * edge.accepted() / edge.answers(), trivial.get("edge"), 1.5);
            atMost(s, "large sale through the edge: writer + Kafka + MariaDB CPU per accepted order vs the batch path "
                    + "alone", sum(sale), sum(parts.alonePerOrder()), 1.5);
            return s;
        }
    }

    private LargeSale() {
    }

    /** A target on {@code a / b} CPU µs of at most {@code max} x; not measured when either is missing. */
    private static void atMost(Section s, String name, Double a, Double b, double max) {
        if (a == null || b == null || b <= 0) {
            s.goal(name, "not measured", "<= " + max + " x", false);
            return;
        }
        s.goal(name, f("%.2f x (%,.1f vs %,.1f µs)", a / b, a, b), "<= " + max + " x", a / b <= max);
    }

    /** The writer's path per order: the writer, Kafka and MariaDB; null when one is missing. */
    private static Double sum(Map<String, Double> perOrder) {
        Double w = perOrder.get("writer");
        Double k = perOrder.get("kafka");
        Double d = perOrder.get("db");
        return w == null || k == null || d == null ? null : w + k + d;
    }

    /** The bench's step (unless --no-large-sale): the large sale's section, and the sign-in's when it ran. */
    public static List<Section> step(Scenario s) throws Exception {
        if (!s.o().largeSale()) {
            return List.of();
        }
        Result r = run(s);
        return r.signIn() == null ? List.of(r.section()) : List.of(r.section(), r.signIn().section());
    }

    /**
     * The parts alone, then the sale through the edge and straight to the service, each settled and checked; between
     * the two, unless --no-sign-in, the same sale through the edge with RS256 and ES256 buyers ({@link SignInCost}).
     */
    public static Result run(Scenario s) throws Exception {
        Progress.say("minting " + BUYERS + " buyers for the large sale");
        Users buyers = new Users(s.stack().tokenSecret(), s.o().firstUser(), BUYERS);
        ShopIdentity provider = s.o().signIn() ? SignInCost.prepare(s) : null;
        Parts parts = parts(s);
        List<AnsweredClick> attempts = new ArrayList<>();
        Run edge = run(s, buyers, VIA_EDGE, s.stack().edgePort(), attempts);
        SignInCost.Result signIn = provider == null ? null : SignInCost.run(s, edge, attempts, provider);
        attempts.clear();
        return new Result(List.of(edge, run(s, buyers, STRAIGHT, s.stack().servicePort(), attempts)), parts, signIn);
    }

    /** One sale of {@code users} on {@code port}, its answers added to {@code attempts}. */
    static Run run(Scenario s, Users users, String route, int port, List<AnsweredClick> attempts) throws Exception {
        int connections = s.o().connections();
        long sale = s.sale("large-sale-" + (port == s.stack().edgePort() ? "edge" : "service"), STOCK);
        Progress.say("large sale " + sale + " (" + route + "): " + STOCK + " units, " + users.size() + " buyers x up to "
                + CLICKS + " clicks, " + connections + " connections");
        Crowd crowd = new Crowd(users, sale, port, CLICKS, 0).likeThePage();
        s.sampler().mark("large sale, " + route);
        // Profiled (--profile) through the edge only, so that the recording covers one sale's window; stopped (and
        // its files written) after the sale's CPU window closed.
        ProfileWindow profile = s.o().profile() && VIA_EDGE.equals(route)
                ? ProfileWindow.start(s.stack(), s.o().out().toAbsolutePath().resolve("profile")) : null;
        long from = s.sampler().open();
        Sampler.PerUnit cpu;
        try {
            attempts.addAll(crowd.run(connections, from + s.o().duration().toNanos()));
            cpu = s.sampler().close("large sale, " + route, from, attempts.stream().filter(AnsweredClick::accepted)
                    .count());
        } finally {
            if (profile != null) {
                profile.close();
            }
        }
        long accepted = cpu.units();
        // Crowd's t0 is 0: an attempt's start is its System.nanoTime().
        Double sellOut = accepted < STOCK ? null : attempts.stream().filter(AnsweredClick::accepted)
                .mapToLong(a -> a.startNanos() + a.latencyNanos() - from).max().orElse(0) / 1e9;
        double unitsPerSecond = accepted / (sellOut != null ? sellOut : cpu.seconds());
        Progress.say(f("large sale %d (%s): %,d answers, %,d accepted, %,.0f units/s; waiting for the writer",
                sale, route, attempts.size(), accepted, unitsPerSecond));
        Scenario.Settled settled = s.settle("large sale, " + route, sale, attempts);
        return new Run(route, sale, connections, attempts.size(), accepted, sellOut, round(unitsPerSecond),
                Timeline.outcomes(attempts), Timeline.latency(attempts), cpu, settled.reconciled(),
                settled.invariants());
    }

    /** What each part of an accepted order costs alone; then the service's trivial route straight to its port. */
    static Parts parts(Scenario s) throws Exception {
        int connections = s.o().connections();
        Measured[] proxied = new Measured[1];
        List<Sampler.PerUnit> parts = List.of(
                window(s, TRIVIAL, () -> (proxied[0] = Scenario.trivial(s.stack().edgePort(), Ceilings.TRIVIAL_PATH,
                        TRIVIAL, connections, Duration.ofSeconds(5))).requests()),
                window(s, SCRIPT, () -> ShardCeiling.run(s.stack(), s.redis(), s.stack().redisPort(), 200_000, false,
                        s.o().out().toAbsolutePath().resolve("parts"))
                        .get(0).requests()),
                window(s, RECORD, () -> records(s, 100_000, connections)),
                window(s, ROW, () -> WriterBenchmark.rows(s.stack(), s.o().out().toAbsolutePath())));
        Progress.say("part costs: the service's trivial route straight to its port");
        return new Parts(parts, alone(parts), proxied[0], Scenario.trivial(s.stack().servicePort(), "/api/ping",
                "trivial route straight to the service", connections, Duration.ofSeconds(5)));
    }

    private static Sampler.PerUnit window(Scenario s, String part, Callable<Long> units) throws Exception {
        Progress.say("part costs: " + part);
        long from = s.sampler().open();
        return s.sampler().close(part, from, units.call());
    }

    /**
     * Order events published by the service's own {@link OrderPublisher} (its settings, acks=all) to a scratch topic
     * of one partition, as a sale's share one, by {@code inFlight} virtual threads each waiting for its
     * acknowledgement as a purchase does; all are acknowledged, or it throws.
     */
    private static long records(Scenario s, int records, int inFlight) throws Exception {
        String bootstrap = s.stack().kafkaBootstrap();
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        KafkaSettings kafka = KafkaSettings.from(ServiceConfig.with(ConfigSources.create(Map.of(
                "kafka.bootstrap", bootstrap, "kafka.topic", TOPIC))).get("kafka"));
        AtomicInteger next = new AtomicInteger();
        long now = System.currentTimeMillis();
        try (OrderPublisher publisher = OrderPublisher.create(kafka, Outcomes.NONE);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Callable<Void> sender = () -> {
                for (long i = next.getAndIncrement(); i < records; i = next.getAndIncrement()) {
                    publisher.publish(OrderEvent.of(1_000_000L + i, ShardCeiling.TEST_SALE, 1_000_000L + i, 100, now),
                            null);
                }
                return null;
            };
            for (Future<Void> f : threads.invokeAll(Collections.nCopies(inFlight, sender))) {
                f.get();
            }
        }
        return records;
    }

    /** Each component's part of an order alone; the service's Redis client and producer are the bench's side. */
    static Map<String, Double> alone(List<Sampler.PerUnit> parts) {
        Map<String, Double> t = parts.get(0).microsPerUnit();
        Map<String, Double> sc = parts.get(1).microsPerUnit();
        Map<String, Double> k = parts.get(2).microsPerUnit();
        Map<String, Double> r = parts.get(3).microsPerUnit();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("edge", t.getOrDefault("edge", 0.0));
        m.put("service", t.getOrDefault("service", 0.0) + sc.getOrDefault(Sampler.BENCH, 0.0)
                + k.getOrDefault(Sampler.BENCH, 0.0));
        m.put("redis", sc.getOrDefault("redis", 0.0));
        m.put("kafka", k.getOrDefault("kafka", 0.0));
        m.put("writer", r.getOrDefault(Sampler.BENCH, 0.0));
        m.put("db", r.getOrDefault("db", 0.0));
        m.put(Sampler.BENCH, t.getOrDefault(Sampler.BENCH, 0.0));
        m.replaceAll((c, v) -> round(v));
        return m;
    }
}
