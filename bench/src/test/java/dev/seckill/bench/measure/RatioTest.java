package dev.seckill.bench.measure;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RatioTest {

    private static Measured m(String name, double rps) {
        return new Measured(name, "test", 1, 1, rps, Map.of(), Map.of(), new Measured.Latency(0, 0, 0, 0, 0), null);
    }

    @Test
    void theMedianOfTheRoundsRatiosCountsNotTheRatioOfTwoLuckyRounds() {
        // Round 1 was quiet for the denominator only; rounds 2 and 3 saw the same load on both sides.
        List<Measured> rounds = List.of(m("a", 27_000), m("b", 46_000), m("a", 25_000), m("b", 24_000),
                m("a", 14_000), m("b", 15_000));
        Ratio r = Ratio.of(rounds, "a", "b");

        assertEquals(List.of(0.59, 1.04, 0.93), r.rounds());
        assertEquals(0.93, r.median());
        assertEquals(0.59, r.ofBest());
    }
}
