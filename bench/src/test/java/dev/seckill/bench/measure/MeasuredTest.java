package dev.seckill.bench.measure;

import dev.seckill.bench.load.Answer;
import dev.seckill.bench.scenario.Ceilings;
import dev.seckill.bench.scenario.Scenario;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A ceiling counts only what it is named after: each of the three ways the ceilings once measured something else
 * (the edge's own 404 as the trivial proxied route, the edge's 429s as the accepted and as the refused purchase
 * path, with the answers of a real run) fails the bench with the breakdown; genuine ceilings pass. A ratio of two
 * ceilings is the median of the rounds'.
 */
class MeasuredTest {

    private static Measured measured(String name, Map<String, Long> byKind) {
        long n = byKind.values().stream().mapToLong(Long::longValue).sum();
        return new Measured(name, "bench client", n, 5, n / 5.0, Map.of(), byKind,
                new Measured.Latency(1, 2, 3, 4, 1.5), null);
    }

    @Test
    void aTrivialRouteTheEdgeAnswersItselfFailsTheBench() {
        Measured edge404 = measured(Ceilings.TRIVIAL, Map.of("404 NOT_FOUND (edge)", 722_090L));

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> edge404.require(Scenario.TRIVIAL_ANSWERS));

        assertTrue(e.getMessage().contains("0.0 %") && e.getMessage().contains("404 NOT_FOUND (edge)=722090"),
                e.getMessage());
    }

    @Test
    void anAcceptedCeilingOfMostlyEdgeRefusalsFailsTheBench() {
        Measured accepted = measured(Ceilings.PURCHASE, Map.of("202 QUEUED", 5_673L, "409 ALREADY_PURCHASED", 110L,
                "429 RATE_LIMITED (edge)", 240_873L));

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> accepted.require(Ceilings.ACCEPTED_ANSWERS));

        assertTrue(e.getMessage().contains("2.3 %"), e.getMessage());
    }

    @Test
    void aRefusedCeilingCountsTheServicesRateLimitedButNotTheEdges() {
        Measured edgeRefusals = measured(Ceilings.PURCHASE_REFUSED, Map.of("409 ALREADY_PURCHASED", 5_100L,
                "429 RATE_LIMITED (edge)", 326_494L));
        Measured service = measured(Ceilings.PURCHASE_REFUSED, Map.of("409 ALREADY_PURCHASED", 5_100L,
                "429 RATE_LIMITED", 120_000L, "429 RATE_LIMITED (edge)", 300L));

        assertThrows(IllegalStateException.class, () -> edgeRefusals.require(Ceilings.REFUSED_ANSWERS));
        assertSame(service, service.require(Ceilings.REFUSED_ANSWERS));
    }

    @Test
    void aCeilingAtTheThresholdPassesAndOneJustUnderFails() {
        Measured at = measured(Ceilings.PURCHASE, Map.of("202 QUEUED", 95L, "503 UNAVAILABLE", 5L));
        Measured under = measured(Ceilings.PURCHASE, Map.of("202 QUEUED", 94L, "503 UNAVAILABLE", 6L));

        assertSame(at, at.require(Ceilings.ACCEPTED_ANSWERS));
        assertThrows(IllegalStateException.class, () -> under.require(Ceilings.ACCEPTED_ANSWERS));
        assertEquals(0, measured("empty", Map.of()).share(Ceilings.ACCEPTED_ANSWERS));
    }

    @Test
    void answersAreKeyedByStatusCodeAndWhoAnswered() {
        assertEquals("429 RATE_LIMITED (edge)", new Answer(429, "{\"code\":\"RATE_LIMITED\"}", true).kind());
        assertEquals("429 RATE_LIMITED", new Answer(429, "{\"code\":\"RATE_LIMITED\"}", false).kind());
        assertEquals("404 (edge)", new Answer(404, "not json", true).kind());
        assertEquals(Answer.NO_ANSWER, Answer.NONE.kind());
    }

    private static Measured m(String name, double rps) {
        return new Measured(name, "test", 1, 1, rps, Map.of(), Map.of(), new Measured.Latency(0, 0, 0, 0, 0), null);
    }

    @Test
    void theMedianOfTheRoundsRatiosCountsNotTheRatioOfTwoLuckyRounds() {
        // Round 1 was quiet for the denominator only; rounds 2 and 3 saw the same load on both sides.
        List<Measured> rounds = List.of(m("a", 27_000), m("b", 46_000), m("a", 25_000), m("b", 24_000),
                m("a", 14_000), m("b", 15_000));
        Measured.Ratio r = Measured.Ratio.of(rounds, "a", "b");

        assertEquals(List.of(0.59, 1.04, 0.93), r.rounds());
        assertEquals(0.93, r.median());
        assertEquals(0.59, r.ofBest());
    }
}
