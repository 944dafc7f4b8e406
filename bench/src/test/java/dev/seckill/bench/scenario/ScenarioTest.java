package dev.seckill.bench.scenario;

import dev.seckill.check.SaleSummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The bench run's own expectation of a sale: exactly min(stock, shoppers) sold, when the run states it. */
class ScenarioTest {

    private static SaleSummary sold(int stock, long orders) {
        return new SaleSummary(1, stock, stock - orders, orders, orders, stock - orders, orders, orders, 0, orders, 0,
                0, 0, List.of(), List.of());
    }

    @Test
    void aSaleThatSoldOtherThanMinOfStockAndShoppersIsNamed() {
        assertEquals("sold 5 orders, not min(stock 6, shoppers 4) = 4", Scenario.soldCount(sold(6, 5), 4L));
        assertEquals("sold 5 orders, not min(stock 6, shoppers 9) = 6", Scenario.soldCount(sold(6, 5), 9L));
        assertNull(Scenario.soldCount(sold(6, 6), 9L));
        assertNull(Scenario.soldCount(sold(6, 4), 4L));
        assertNull(Scenario.soldCount(sold(6, 1), null), "a run that states no expectation");
    }
}
