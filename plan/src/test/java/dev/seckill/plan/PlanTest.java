package dev.seckill.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.plan.Costs.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The planner on a default bench run's report.json (report.json in the test resources: a real run's, cut to the
 * fields the plan reads) and on hand-made costs whose plan can be worked out by hand.
 */
class PlanTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode report() throws IOException {
        try (InputStream in = PlanTest.class.getResourceAsStream("/report.json")) {
            return JSON.readTree(in);
        }
    }

    @Test
    void readsEachClickKindsCostFromTheReportsWindows() throws IOException {
        JsonNode r = report();
        Costs c = Costs.of("fixture", r);
        JsonNode viaEdge = r.path("largeSale").path("runs").get(0);
        double accepted = viaEdge.path("accepted").asDouble();
        double byService = viaEdge.path("answers").asDouble() - Costs.edgeAnswered(viaEdge.path("byKind"));
        JsonNode perUnit = viaEdge.path("cpu").path("microsPerUnit");
        assertEquals(perUnit.path("service").asDouble() * accepted / byService, c.serviceAnswer().get(Node.SERVICE),
                1e-9);
        assertEquals(perUnit.path("kafka").asDouble(), c.order().get(Node.KAFKA), 1e-9);
        assertEquals(byService / accepted, c.answersPerOrder(), 1e-9);
        // The smallest flood's window: cores x seconds over its answers.
        assertTrue(c.edgeAnswer().get(Node.EDGE) > 0);
        assertTrue(c.oneSale().buyersPerCall() > 1, "coalescing puts several buyers in a call");
        // One sale's shard: a core over Redis's CPU per accepted order.
        assertEquals(1e6 / perUnit.path("redis").asDouble(), c.oneSale().shardUnits(), 1e-6);
        // The plan's edge answers cost what the flood of the most connections measured, the client's apart.
        JsonNode last = r.path("floods").get(r.path("floods").size() - 1);
        assertEquals(last.path("cpu").path("microsPerUnit").path("edge").asDouble(), c.edgeAnswer().get(Node.EDGE));
    }

    @Test
    void aReportWithoutTheLargeSaleSaysWhatIsMissingInOneLine() throws IOException {
        ObjectNode r = (ObjectNode) report();
        r.remove("largeSale");
        PlanException e = assertThrows(PlanException.class, () -> Costs.of("small.json", r));
        assertTrue(e.getMessage().contains("large sale") && e.getMessage().contains("bin/seckill bench"),
                e.getMessage());
        assertThrows(PlanException.class, () -> Costs.of("x", JSON.readTree("[1]")));
    }

    /** Costs of round numbers: 1 µs per edge answer, 100 per service answer, 10 per order and node. */
    private static Costs handMade(double shard, double partition, double rows) {
        Map<Node, Double> edge = new EnumMap<>(Map.of(Node.EDGE, 1.0));
        Map<Node, Double> service = new EnumMap<>(Map.of(Node.EDGE, 20.0, Node.SERVICE, 60.0, Node.REDIS, 20.0));
        Map<Node, Double> order = new EnumMap<>(Map.of(Node.KAFKA, 10.0, Node.WRITER, 10.0, Node.DB, 10.0));
        Map<Node, Double> status = new EnumMap<>(Map.of(Node.EDGE, 10.0, Node.SERVICE, 10.0, Node.DB, 10.0));
        return new Costs("hand", "hand", 2, edge, service, order, status, 2.0,
                new Costs.OneSale(shard, partition, rows, 20_000, 30, 25_000),
                List.of(new Costs.Flood(1000, 1, new EnumMap<>(Map.of(Node.EDGE, 1.0)), 0)), null);
    }

    @Test
    void sizesEachKindFromItsDemandOverItsHeadroomWithTheTopologysMinimum() {
        // 1,000,000 clicks: 30 % pages, 20 % polls, 5 % status reads; 450,000 purchase clicks of which 2 x 50,000
        // reach the service; the edge answers 500,000 + 350,000.
        Target t = new Target(1_000_000, 50_000, 10, 1_000_000, 0.3, 0.2, 0.05, 0.75, 8);
        Sizing s = Sizing.of(handMade(40_000, 30_000, 20_000), t);
        assertEquals(850_000, s.flows().edgeAnswered(), 1e-6);
        assertEquals(100_000, s.flows().serviceAnswered(), 1e-6);
        assertEquals(50_000, s.flows().statusPolls(), 1e-6);
        Map<String, Sizing.Kind> k = new java.util.HashMap<>();
        s.kinds().forEach(x -> k.put(x.name().split(" ")[0], x));
        // edge: 850,000 x 1 + 100,000 x 20 + 50,000 x 10 = 3.35 cores -> 3.35 / 6 -> 1, at least 2.
        assertEquals(3.35, k.get("edges").cores(), 1e-9);
        assertEquals(2, k.get("edges").nodes());
        // service: 100,000 x 60 + 50,000 x 10 = 6.5 cores / 6 -> 2.
        assertEquals(2, k.get("services").nodes());
        // Redis: 100,000 x 20 = 2 cores, one a shard at 0.75 -> 3.
        assertEquals(3, k.get("Redis").nodes());
        // Kafka: 50,000 x 10 = 0.5 core x 3 replicas / 6 -> 1, at least 3.
        assertEquals(1.5, k.get("Kafka").cores(), 1e-9);
        assertEquals(3, k.get("Kafka").nodes());
        assertEquals(10, k.get("orders").nodes(), "a partition a sale");
        // 5,000,000 clicks, 500,000 units/s: 1,000,000 service answers x 60 + 250,000 status reads x 10 = 62.5
        // cores / 6 -> 11, past the minimum.
        Sizing big = Sizing.of(handMade(40_000, 30_000, 20_000),
                new Target(5_000_000, 500_000, 10, 1_000_000, 0.3, 0.2, 0.05, 0.75, 8));
        assertEquals(11, big.kinds().stream().filter(x -> x.name().equals("services")).findFirst().orElseThrow()
                .nodes());
    }

    @Test
    void theHotSaleIsBoundByItsSlowestOneSaleCeiling() {
        Target t = new Target(1_000_000, 50_000, 10, 1_000_000, 0.3, 0.2, 0.05, 0.75, 8);
        Sizing.Limit byRows = Sizing.hotSale(handMade(40_000, 30_000, 20_000), t);
        assertEquals("one stock row (the writer's batch path)", byRows.binding());
        assertEquals(15_000, byRows.hotUnitsPerSecond(), 1e-6);
        assertEquals(1_000_000 / 15_000.0, byRows.sellOutSeconds(), 1e-6);
        Sizing.Limit byShard = Sizing.hotSale(handMade(10_000, 30_000, 20_000), t);
        assertEquals("one Redis shard", byShard.binding());
        Sizing.Limit byPartition = Sizing.hotSale(handMade(40_000, 5_000, 20_000), t);
        assertEquals("one Kafka partition", byPartition.binding());
        assertEquals(5_000, byPartition.bindingUnits(), 1e-6);
    }

    @Test
    void predictsTheReportsFiguresBackBesideWhatItMeasured() throws IOException {
        Costs c = Costs.of("fixture", report());
        List<Prediction> p = Prediction.single(c);
        assertEquals(List.of("flash sale, answers/s (edge's answers at 1,000 connections' cost)",
                "sold-out flood at 5,000 connections, from 1,000's cost, answers/s",
                "sold-out flood at 20,000 connections, from 5,000's cost, answers/s",
                "large sale through the edge, units/s"), p.stream().map(Prediction::what).toList());
        p.forEach(x -> assertTrue(x.predicted() > 0 && x.measured() > 0, x.toString()));
        // The run's stack at rest (every part, the client and others; idle aside) comes off the machine's cores.
        assertEquals(0.59, Costs.atRest(report()).orElseThrow(), 1e-9);
        assertEquals(0.5, new Prediction("x", "y", 150, 100).error(), 1e-9);
        assertTrue(new Prediction("x", "y", 125, 100).close());
        assertTrue(!new Prediction("x", "y", 126, 100).close());
    }

    @Test
    void predictsTheClusterFromTheSingleStackOfTheSameRunByTheirCostsAndTheCoresLeftAtRest() throws IOException {
        // Every answer the edge's (1 µs); the cluster adds the load balancer's proxying (10 µs) to each.
        JsonNode single = JSON.readTree("""
                {"flashSale": {"rps": 1000, "requests": 100, "edgeShortCircuits": 100, "edgeRateLimited": 0,
                 "accepted": 0},
                 "cpu": [{"window": "at rest, before the flash sale", "cores": {"service": 0.1, "idle": 1.9}}]}""");
        JsonNode cluster = JSON.readTree(single.toString().replace("1000", "500").replace("0.1", "0.5")
                .replace("1.9", "1.5"));
        Prediction p = Prediction.cluster(handMade(40_000, 30_000, 20_000), cluster, single, "run");
        assertEquals(1000 * (1.0 / 11) * (1.5 / 1.9), p.predicted(), 1e-9);
        assertEquals(500, p.measured(), 1e-9);
        assertThrows(PlanException.class, () -> Prediction.cluster(handMade(1, 1, 1), cluster,
                JSON.readTree("{}"), "run"));
    }

    @Test
    void theCommandPrintsThePlanOrOneLineWhyNot(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("report.json");
        Files.writeString(good, report().toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, Plan.run(new PrintStream(out), new PrintStream(err), "--report", good.toString()));
        String plan = out.toString(StandardCharsets.UTF_8);
        assertTrue(plan.contains("report: " + good) && plan.contains("binding limit:") && plan.contains("edges"), plan);

        out.reset();
        Path missing = dir.resolve("none.json");
        assertEquals(1, Plan.run(new PrintStream(out), new PrintStream(err), "--report", missing.toString()));
        assertEquals("plan: no bench report at " + missing + ": run bin/seckill bench, or give --report FILE",
                err.toString(StandardCharsets.UTF_8).strip());
        err.reset();
        Files.writeString(dir.resolve("bad.json"), "{not json");
        assertEquals(1, Plan.run(new PrintStream(out), new PrintStream(err), "--report",
                dir.resolve("bad.json").toString()));
        assertEquals(1, err.toString(StandardCharsets.UTF_8).strip().lines().count(), err.toString());
        assertEquals(2, Plan.run(new PrintStream(out), new PrintStream(err), "--clicks", "many"));
    }
}
