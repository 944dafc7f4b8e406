package dev.seckill.system.bench;

import dev.seckill.bench.Bench;
import dev.seckill.bench.scenario.BenchOptions;
import dev.seckill.check.SaleSummary;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small flash sale with payment behaviour, run by the bench's own entry point against the test stack:
 * half the winners pay within a 3 s window, the others let it lapse, and the returned units go on sale again to new
 * shoppers. Asserted: the extended invariants, read from MySQL and Redis once every order is PAID or EXPIRED, and
 * that units did come back and were sold again; the speed numbers only go to the report.
 */
class PaymentBenchIT {

    private final Stack stack = Stack.get();

    @Test
    void lapsedUnitsComeBackOnceAreSoldAgainAndEveryInvariantHolds() throws Exception {
        Path out = stack.home().resolve("system-tests/target/payment-bench");
        BenchOptions run = BenchOptions.defaults().with(30, 600, 3, 32, Duration.ofSeconds(60), out, false)
                .paying(0.5, Duration.ofSeconds(3), 0);

        Bench.Outcome outcome = Bench.run(stack, run);

        SaleSummary sale = outcome.checks().get(0).check();
        System.out.println("payment bench: " + sale.summary() + "; returned " + outcome.unitsReturned()
                + ", sold again " + outcome.unitsResold() + "; report " + outcome.report());
        assertTrue(outcome.invariantsHold(), sale.summary());
        assertEquals(0, sale.lost(), sale.summary());
        assertTrue(outcome.unitsReturned() > 0, "some winners let the window lapse");
        assertTrue(outcome.unitsResold() > 0, "returned units were bought again");
        assertEquals(sale.expired(), sale.redisReturned(), "each lapsed unit came back exactly once");
        assertEquals(sale.stockTotal(), sale.liveOrders() + sale.redisRemaining(), sale.summary());
    }
}
