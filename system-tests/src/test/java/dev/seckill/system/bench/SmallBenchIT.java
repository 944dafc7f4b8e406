package dev.seckill.system.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.bench.Bench;
import dev.seckill.bench.scenario.BenchOptions;
import dev.seckill.check.SaleSummary;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small flash sale run by the bench's own entry point ({@link Bench#run}, what {@code bin/seckill bench}
 * runs) against the test stack: 50 units, 3,000 signed-in users clicking up to three times each over 64
 * connections, through the edge, seconds long. Only the invariant checks are asserted, read from MySQL and Redis
 * after the writer caught up; the speed numbers go to the report and never decide a test.
 */
class SmallBenchIT {

    private static final int STOCK = 50;
    private static final int FLOOD = 200;

    private final Stack stack = Stack.get();

    @Test
    void smallFlashSaleSellsExactlyItsStockOncePerUserAndLosesNoAcceptedOrder() throws Exception {
        Path out = stack.home().resolve("system-tests/target/small-bench");
        BenchOptions small = BenchOptions.defaults().with(STOCK, 3000, 3, 64, Duration.ofSeconds(60), out, false);

        Bench.Outcome outcome = Bench.run(stack, small);

        SaleSummary sale = outcome.checks().get(0).check();
        System.out.println("small bench: " + sale.summary() + "; report " + outcome.report());
        assertTrue(outcome.invariantsHold(), sale.summary());
        assertEquals(null, outcome.checks().get(0).soldCount(), "orders = min(stock, shoppers): " + sale.summary());
        assertEquals(STOCK, sale.dbOrders(), sale.summary());
        assertEquals(0L, sale.redisRemaining(), sale.summary());
        assertEquals(sale.dbOrders(), sale.distinctBuyers(), "one order per user: " + sale.summary());
        assertEquals(STOCK, sale.accepted(), "every unit was answered 202 exactly once: " + sale.summary());
        assertEquals(0, sale.lost(), sale.summary());
        assertTrue(Files.exists(outcome.report()), "report written: " + outcome.report());
    }

    /**
     * The sold-out flood of the same run, by wrk through bench/ceilings.sh: every connection opened, every answer the
     * edge's SOLD_OUT as wrk's report and the edge's script counted it, none missing, none failed.
     */
    @Test
    void theSoldOutFloodRunsByWrkAndEveryAnswerIsSoldOut() throws Exception {
        Path out = stack.home().resolve("system-tests/target/small-bench-flood");
        Bench.run(stack, BenchOptions.defaults().with(STOCK, FLOOD, 1, 64, Duration.ofSeconds(60), out, false)
                .flooding(List.of(FLOOD), Duration.ofSeconds(2)));

        JsonNode floods = new ObjectMapper().readTree(out.resolve("report.json").toFile()).path("floods");
        assertEquals(1, floods.size(), floods.toString());
        JsonNode level = floods.get(0);
        assertEquals(FLOOD, level.path("connections").asInt(), level.toString());
        assertEquals(FLOOD, level.path("open").path("open").asInt(), "every connection open at once: " + level);
        assertEquals(0, level.path("failedConnections").asInt(), level.toString());
        JsonNode measured = level.path("measured");
        assertEquals("wrk", measured.path("generator").asText(), level.toString());
        assertTrue(measured.path("requests").asLong() > 0, level.toString());
        assertEquals(List.of("410 SOLD_OUT"), measured.path("byKind").properties().stream().map(Map.Entry::getKey).toList(), level.toString());
        assertEquals(measured.path("requests").asLong(), measured.path("byKind").path("410 SOLD_OUT").asLong(),
                level.toString());
        assertTrue(Files.exists(out.resolve("flood/flood-" + FLOOD + "-1.txt")), "wrk's own report kept");
    }
}
