package dev.seckill.bench;

import dev.seckill.bench.writer.WriterBenchmark;
import dev.seckill.testkit.Stack;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each part of an accepted order costs alone, measured in the same run as the {@link LargeSale} so that the
 * whole can be set against the sum of its parts. Four measurements, each in its own CPU window:
 * <ul>
 * <li>{@link #TRIVIAL}: the trivial proxied route through the edge (edge, service's HTTP, load client per request);</li>
 * <li>{@link #SCRIPT}: purchase.lua by redis-benchmark, one fresh buyer per call (Redis per call);</li>
 * <li>{@link #RECORD}: an order event produced with the service's producer settings and acknowledged (Kafka per
 * record; the producer's side runs in the bench);</li>
 * <li>{@link #ROW}: rows through the writer's batch path (MariaDB per row; the writer's code runs in the bench).</li>
 * </ul>
 */
final class PartCosts {

    static final String TRIVIAL = "a proxied trivial request";
    static final String SCRIPT = "a purchase-script call (one buyer)";
    static final String RECORD = "a Kafka record produced and acknowledged";
    static final String ROW = "a row written (batch path)";
    /** The service's trivial route, which the edge's {@link Ceilings#TRIVIAL_PATH} proxies to. */
    static final String SERVICE_TRIVIAL = "/api/ping";

    /**
     * Each part's window, the cost per order each component has alone (µs), and the two trivial routes the sale is
     * set against: through the edge ({@link Ceilings#TRIVIAL_PATH}) and the service's own straight to its port.
     */
    record Result(List<CpuWindow.PerUnit> parts, Map<String, Double> alonePerOrder, Measured trivialProxied,
                  Measured trivialStraight) {

        double sum() {
            return alonePerOrder.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    private PartCosts() {
    }

    static Result run(Stack stack, Sampler sampler, RedissonClient redis, int connections) throws Exception {
        List<CpuWindow.PerUnit> parts = new ArrayList<>();
        Bench.say("part costs: " + TRIVIAL);
        CpuWindow w = CpuWindow.open(sampler);
        LoadClient.Request ping = new LoadClient.Request(Users.get(Ceilings.TRIVIAL_PATH, stack.edgePort()), null);
        Measured trivial = NamedAnswers.require(Ceilings.steady(stack.edgePort(), connections, TRIVIAL, i -> ping,
                Duration.ofSeconds(5), null, false), Ceilings.TRIVIAL_ANSWERS);
        parts.add(w.close(TRIVIAL, trivial.requests()));
        Bench.say("part costs: the service's trivial route straight to its port");
        LoadClient.Request straightPing = new LoadClient.Request(Users.get(SERVICE_TRIVIAL, stack.servicePort()), null);
        Measured straight = NamedAnswers.require(Ceilings.steady(stack.servicePort(), connections,
                "trivial route straight to the service", i -> straightPing, Duration.ofSeconds(5), null, false),
                Ceilings.TRIVIAL_ANSWERS);

        Bench.say("part costs: " + SCRIPT);
        w = CpuWindow.open(sampler);
        Measured script = RedisCeiling.queued(stack, redis, stack.redisPort(), 200_000);
        parts.add(w.close(SCRIPT, script.requests()));

        Bench.say("part costs: " + RECORD);
        w = CpuWindow.open(sampler);
        long records = KafkaCost.produce(stack, 100_000, connections);
        parts.add(w.close(RECORD, records));

        Bench.say("part costs: " + ROW);
        w = CpuWindow.open(sampler);
        int rows = WriterBenchmark.batchedOnly(stack, 100_000);
        parts.add(w.close(ROW, rows));
        return new Result(parts, alone(parts), trivial, straight);
    }

    /**
     * An order's parts by the component that pays for them in a sale: the edge and the load client one proxied
     * request each; the service its HTTP (the trivial request), its Redis client (redis-benchmark's side) and its
     * producer (the bench's side of the records); Redis one script call; Kafka one record; the writer its batch code
     * (the bench's side of the rows); MariaDB one row.
     */
    static Map<String, Double> alone(List<CpuWindow.PerUnit> parts) {
        Map<String, Double> t = find(parts, TRIVIAL).microsPerUnit();
        Map<String, Double> s = find(parts, SCRIPT).microsPerUnit();
        Map<String, Double> k = find(parts, RECORD).microsPerUnit();
        Map<String, Double> r = find(parts, ROW).microsPerUnit();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("edge", t.getOrDefault("edge", 0.0));
        m.put("service", t.getOrDefault("service", 0.0) + s.getOrDefault(Sampler.BENCH, 0.0)
                + k.getOrDefault(Sampler.BENCH, 0.0));
        m.put("redis", s.getOrDefault("redis", 0.0));
        m.put("kafka", k.getOrDefault("kafka", 0.0));
        m.put("writer", r.getOrDefault(Sampler.BENCH, 0.0));
        m.put("db", r.getOrDefault("db", 0.0));
        m.put(Sampler.BENCH, t.getOrDefault(Sampler.BENCH, 0.0));
        m.replaceAll((c, v) -> Report.round(v));
        return m;
    }

    private static CpuWindow.PerUnit find(List<CpuWindow.PerUnit> parts, String name) {
        return parts.stream().filter(p -> p.window().equals(name)).findFirst().orElseThrow();
    }
}
