package dev.seckill.system.bench;

import dev.seckill.bench.Bench;
import dev.seckill.bench.BenchOptions;
import dev.seckill.check.SaleSummary;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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
}
