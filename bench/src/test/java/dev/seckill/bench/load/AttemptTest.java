package dev.seckill.bench.load;

import dev.seckill.check.Op;
import dev.seckill.check.OpKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A bench attempt as the checker's operation: its wall-clock times, who answered, no answer without a code. */
class AttemptTest {

    @Test
    void anAttemptBecomesAPurchaseTimedByTheWallClock() {
        AnsweredClick edge = new AnsweredClick(11, 5_000_000, 7_000_000, 410, "SOLD_OUT", null, true, 1_800_000_000_007L);
        AnsweredClick silent = new AnsweredClick(12, 0, 2_000_000_000L, 0, "NO_ANSWER", null, false, 1_800_000_002_000L);
        List<Op> ops = AnsweredClick.ops(7, List.of(edge, silent));
        Op first = ops.getFirst();
        assertEquals(new Op(1, OpKind.PURCHASE, null, 7, 11, 0, 1_800_000_000_000L, 1_800_000_000_007L, 410,
                "SOLD_OUT", null, "edge", null), first);
        Op second = ops.get(1);
        assertEquals(2, second.id());
        assertEquals(0, second.status());
        assertNull(second.code());
        assertEquals("service", second.node());
        assertEquals(1_800_000_000_000L, second.startMillis());
    }
}
