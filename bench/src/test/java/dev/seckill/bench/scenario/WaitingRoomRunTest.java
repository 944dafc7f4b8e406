package dev.seckill.bench.scenario;

import dev.seckill.bench.load.LineCrowd;
import dev.seckill.bench.load.Users;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.seckill.bench.scenario.WaitingRoomRun.spearman;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitingRoomRunTest {

    @Test
    void theFairnessFigureIsSpearmansRankCorrelationOfJoiningTimeAndPlace() {
        LineCrowd crowd = new LineCrowd(new Users(1, new String[] {"a", "b", "c", "d"}), 1, 80, 1000, a -> { });
        for (int i = 0; i < 4; i++) {
            crowd.add(i, LineCrowd.Kind.PREQUEUE, 100 + 10L * i);
        }
        assertEquals(1.0, spearman(crowd.buyers(), b -> true, Map.of(1L, 1L, 2L, 2L, 3L, 3L, 4L, 4L)), 1e-9);
        assertEquals(-1.0, spearman(crowd.buyers(), b -> true, Map.of(1L, 4L, 2L, 3L, 3L, 2L, 4L, 1L)), 1e-9);
        // 1 - 6 * (1 + 1) / (4 * 15): two neighbours swapped.
        assertEquals(0.8, spearman(crowd.buyers(), b -> true, Map.of(1L, 2L, 2L, 1L, 3L, 3L, 4L, 4L)), 1e-9);
        assertTrue(Double.isNaN(spearman(crowd.buyers(), b -> b.userId < 3, Map.of(1L, 1L, 2L, 2L))));
    }
}
