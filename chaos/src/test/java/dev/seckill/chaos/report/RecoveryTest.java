package dev.seckill.chaos.report;

import dev.seckill.chaos.fault.Fault;
import dev.seckill.chaos.fault.FaultEvent;
import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Window;
import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class RecoveryTest {

    private static Op purchase(long sale, long start, long end, int status, String code) {
        return new Op(start, OpKind.PURCHASE, "r" + start, sale, 1, 0, start, end, status, code, null, "lb", null);
    }

    private static Window window(int n, Fault f, long injected, long healed) {
        return new Window(new FaultEvent(n, f, Duration.ZERO, Duration.ofSeconds(1)), injected, healed, null);
    }

    @Test
    void aFaultsRecoveryIsItsSlowestAffectedSalesFirstGoodAnswerAfterTheHeal() {
        List<Op> ops = List.of(
                purchase(1, 1_100, 1_200, 503, "UNAVAILABLE"),
                purchase(2, 1_300, 7_000, 0, null),
                purchase(3, 1_400, 1_500, 410, "SOLD_OUT"),
                purchase(1, 2_100, 2_400, 202, "QUEUED"),
                purchase(2, 2_500, 4_000, 409, "ALREADY_PURCHASED"));
        List<Recovery.OfFault> f = Recovery.perFault(ops, List.of(window(1, new Fault.Kill("redis-1"), 1_000, 2_000)));
        assertEquals(List.of(1L, 2L), f.getFirst().affectedSales(), "sale 3 only had good answers");
        assertEquals(2_000L, f.getFirst().millis(), "sale 2's first good answer ended 2 s after the heal");
        Recovery.OfKind k = Recovery.perKind(f).getFirst();
        assertEquals(FaultKind.KILL, k.kind());
        assertEquals(1, k.affecting());
        assertEquals(0, k.notRecovered());
    }

    @Test
    void aSaleWithNoGoodAnswerAfterTheHealNeverRecovered() {
        List<Op> ops = List.of(purchase(1, 1_100, 1_200, 503, "UNAVAILABLE"), purchase(1, 2_100, 2_200, 503, "UNAVAILABLE"));
        Recovery.OfFault f = Recovery.perFault(ops, List.of(window(1, new Fault.Pause("lb"), 1_000, 2_000))).getFirst();
        assertFalse(f.recovered());
        assertEquals(1, Recovery.perKind(List.of(f)).getFirst().notRecovered());
        assertNull(Recovery.perKind(List.of(f)).getFirst().maxMillis());
    }
}
