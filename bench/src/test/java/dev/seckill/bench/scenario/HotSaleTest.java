package dev.seckill.bench.scenario;

import dev.seckill.check.SaleSummary;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.BenchReport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hot sale's numbers: decisions leave out 503s and unanswered requests, the ratio needs both runs. */
class HotSaleTest {

    private static HotSale.Run run(String mode, long requests, Map<String, Long> byStatus) {
        Measured m = new Measured("hot sale, " + mode, "bench client", requests, 10, requests / 10.0, byStatus,
                byStatus, new Measured.Latency(1, 2, 3, 4, 1.5), null);
        SaleSummary ok = new SaleSummary(1, 100_000, 0, 0, 0, 0L, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of());
        return new HotSale.Run(mode, mode.equals(HotSale.ONE_CALL) ? "1" : "default", 1, m, 1, 0, ok);
    }

    @Test
    void decisionsLeaveOutUnavailableAndUnansweredRequests() {
        HotSale.Run r = run(HotSale.ONE_CALL, 1_000, Map.of("202", 900L, "503", 80L, "0", 20L));
        assertEquals(90.0, r.decisionsPerSecond(), 1e-9);
    }

    @Test
    void theRatioIsCoalescingOverOneCallAndNeedsBoth() {
        HotSale.Run one = run(HotSale.ONE_CALL, 1_000, Map.of("202", 1_000L));
        HotSale.Run co = run(HotSale.COALESCING, 2_500, Map.of("202", 2_400L, "409", 100L));
        assertEquals(2.5, HotSale.ratio(List.of(one, co)), 1e-9);
        assertNull(HotSale.ratio(List.of(co)));
        String md = HotSale.section(List.of(one, co)).markdown();
        assertTrue(md.contains("**2.50 x**"), md);
        assertTrue(md.contains("| coalescing | default | 250 |"), md);
    }
}
