package dev.seckill.bench.scenario;

import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.check.SaleSummary;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.Jmh;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sign-in section: each algorithm against HS256, the target on RS256, and runs whose tokens were refused. */
class SignInCostTest {

    private static LargeSale.Run run(String route, double unitsPerSecond, Map<String, Long> byKind) {
        SaleSummary ok = new SaleSummary(1, 100, 0, 100, 100, 0L, 100, 100, 0, 100, 0, 0, 0, List.of(), List.of());
        return new LargeSale.Run(route, 1, 256, 4, 2, 2.0, unitsPerSecond, byKind,
                new Measured.Latency(1, 2, 3, 4, 1.5), new Sampler.PerUnit(route, 2, 2, Map.of(), Map.of(), 1), 0, ok);
    }

    private static AnsweredClick answer(long user, int status, String code, boolean byEdge) {
        return new AnsweredClick(user, 0, 1, status, code, null, byEdge, 0);
    }

    /** Two buyers: one bought at its second click (the first an edge 429), one was answered SOLD_OUT by the edge. */
    private static final List<AnsweredClick> ATTEMPTS = List.of(answer(1, 429, "RATE_LIMITED", true),
            answer(1, 202, "QUEUED", false), answer(2, 202, "QUEUED", false), answer(2, 410, "SOLD_OUT", false));

    private static SignInCost.Signed signed(String alg, double unitsPerSecond) {
        return SignInCost.signed(alg, run(alg, unitsPerSecond, Map.of("202 QUEUED", 2L)), ATTEMPTS);
    }

    private static Jmh.Score micros(String benchmark, double us) {
        return new Jmh.Score(benchmark, Map.of(), us, 0.5, "us/op", us, Map.of(), "1 fork(s)");
    }

    @Test
    void signatureChecksAndFreeClicksAreTheServicesOwnCacheMeters() {
        String miss = "cache_gets_total{cache=\"verified-tokens\",result=\"miss\"}";
        String hit = "cache_gets_total{cache=\"verified-tokens\",result=\"hit\"}";
        Map<String, Double> before = Map.of(miss, 10.0, hit, 5.0);
        Map<String, Double> after = Map.of(miss, 110.0, hit, 35.0, "cache_gets_total{cache=\"other\",result=\"miss\"}",
                7.0);
        assertEquals(100, SignInCost.tokenCache(before, after, "miss"));
        assertEquals(30, SignInCost.tokenCache(before, after, "hit"));
    }

    @Test
    void eachAlgorithmIsSetAgainstHs256AndRs256AgainstItsTarget() {
        SignInCost.Result r = new SignInCost.Result(List.of(signed("HS256", 10_000), signed("RS256", 8_500),
                signed("ES256", 9_500)), 0, 0, 0, 0, List.of(micros("TokenVerification.hs256", 5),
                micros("TokenVerification.rs256", 41.5)));

        assertEquals(0.85, r.over("RS256"));
        assertEquals(0.95, r.over("ES256"));
        var section = r.section();
        assertEquals(1, section.goals().size());
        assertFalse(section.goals().getFirst().met(), "0.85 x is under 0.9 x");
        assertTrue(section.goals().getFirst().measured().startsWith("0.85 x (8,500 vs 10,000 units/s)"));
        String md = section.markdown();
        assertTrue(md.contains("| RS256 | 8,500 | 0.85 x | 2.00 s |"), md);
        assertTrue(md.contains("| TokenVerification.rs256 | 41.50 | ± 0.50 | 8.3 x |"), md);
        JsonNode data = section.data();
        assertEquals(0.95, data.path("overHs256").path("ES256").asDouble());
        assertEquals(2.0, data.path("runs").get(1).path("clicksPerBuyer").asDouble());
    }

    @Test
    void whatReachedTheServiceLeavesOutTheEdgesAnswersAndCountsRepeatedClicks() {
        SignInCost.Signed s = signed("RS256", 1);
        assertEquals(2, s.buyers());
        assertEquals(3, s.reachedService());
        assertEquals(2, s.buyersAtService());
        assertEquals(1, s.repeatedAtService());
    }

    @Test
    void aRunWhoseTokensTheServiceRefusedIsNoFigure() {
        var e = assertThrows(IllegalStateException.class, () -> SignInCost.signed("RS256",
                run("RS256", 0, Map.of("401 UNAUTHENTICATED", 4L)), ATTEMPTS));
        assertTrue(e.getMessage().contains("4 of its 4 answers were 401"), e.getMessage());
    }
}
