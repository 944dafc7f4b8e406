package dev.seckill.bench.scenario;

import dev.seckill.bench.Bench;
import dev.seckill.bench.measure.Admin;
import dev.seckill.bench.measure.CpuWindow;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Report;
import dev.seckill.breaker.Outcomes;
import dev.seckill.config.ServiceConfig;
import dev.seckill.event.OrderEvent;
import dev.seckill.purchase.KafkaSettings;
import dev.seckill.purchase.OrderPublisher;
import dev.seckill.testkit.Stack;
import io.helidon.config.ConfigSources;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.redisson.api.RedissonClient;

import java.sql.SQLException;
import java.time.Duration;
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

/**
 * What each part of an accepted order costs alone, each in its own CPU window, for the {@link LargeSale}'s whole
 * against the sum of its parts; beside them the service's trivial route straight to its port.
 */
public final class PartCosts {

    public static final String TRIVIAL = "a proxied trivial request";
    public static final String SCRIPT = "a purchase-script call (one buyer)";
    static final String RECORD = "a Kafka record produced and acknowledged";
    static final String ROW = "a row written (batch path)";
    public static final String TOPIC = "seckill.bench.parts";

    /** Each part's window, each component's cost per order alone (µs), and the two trivial routes. */
    public record Result(List<CpuWindow.PerUnit> parts, Map<String, Double> alonePerOrder, Measured trivialProxied,
                  Measured trivialStraight) {

        public double sum() {
            return alonePerOrder.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    private PartCosts() {
    }

    public static Result run(Stack stack, Sampler sampler, RedissonClient redis, int connections) throws Exception {
        Measured[] proxied = new Measured[1];
        List<CpuWindow.PerUnit> parts = List.of(
                window(sampler, TRIVIAL, () -> (proxied[0] = Ceilings.trivial(stack.edgePort(), Ceilings.TRIVIAL_PATH,
                        TRIVIAL, connections, Duration.ofSeconds(5))).requests()),
                window(sampler, SCRIPT, () -> ShardCeiling.run(stack, redis, stack.redisPort(), 200_000, false).get(0)
                        .requests()),
                window(sampler, RECORD, () -> records(stack, 100_000, connections)),
                window(sampler, ROW, () -> rows(stack)));
        Bench.say("part costs: the service's trivial route straight to its port");
        return new Result(parts, alone(parts), proxied[0], Ceilings.trivial(stack.servicePort(), "/api/ping",
                "trivial route straight to the service", connections, Duration.ofSeconds(5)));
    }

    private static CpuWindow.PerUnit window(Sampler sampler, String part, Callable<Long> units) throws Exception {
        Bench.say("part costs: " + part);
        return CpuWindow.open(sampler).close(part, units.call());
    }

    /**
     * Order events published by the service's own {@link OrderPublisher} (its settings, acks=all) to a scratch topic
     * of one partition, as a sale's share one, by {@code inFlight} virtual threads each waiting for its
     * acknowledgement as a purchase does; all are acknowledged, or it throws.
     */
    private static long records(Stack stack, int records, int inFlight) throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        KafkaSettings kafka = KafkaSettings.from(ServiceConfig.with(ConfigSources.create(Map.of(
                "kafka.bootstrap", stack.kafkaBootstrap(), "kafka.topic", TOPIC))).get("kafka"));
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

    /** The batch path alone, as the writer runs it: every row it wrote, its warm-up's included. */
    private static long rows(Stack stack) throws SQLException {
        WriterBenchmark.Result w = WriterBenchmark.run(stack, 100_000, 0, 1);
        if (!w.consistent()) {
            throw new SQLException("the batch path wrote an inconsistent sale");
        }
        return w.rows();
    }

    /** Each component's part of an order alone; the service's Redis client and producer are the bench's side. */
    static Map<String, Double> alone(List<CpuWindow.PerUnit> parts) {
        Map<String, Double> t = parts.get(0).microsPerUnit();
        Map<String, Double> s = parts.get(1).microsPerUnit();
        Map<String, Double> k = parts.get(2).microsPerUnit();
        Map<String, Double> r = parts.get(3).microsPerUnit();
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
}
