package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.ShopIdentity;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.report.Section;
import dev.seckill.bench.report.Jmh;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.nimbusds.jose.JWSAlgorithm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.n;
import static dev.seckill.bench.report.Section.round;

/**
 * What checking a shop's sign-in token costs the purchase path: the large sale through the edge with HS256 buyers
 * (the large sale's own run), then the same crowd with RS256 and with ES256 tokens of the bench's
 * {@link ShopIdentity}, whose JWKS the service was restarted with (bin/lib/bench.sh); beside them one verification of
 * each algorithm in-process, as the microbench module's {@code TokenVerification} timed it ({@value Jmh#FILE}).
 */
public final class SignInCost {

    static final List<JWSAlgorithm> SIGNED = List.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
    static final String TOKEN_VERIFICATION = "TokenVerification";

    /** One run of the large sale with one algorithm's buyers; what reached the service counted without the edge's. */
    public record Signed(String algorithm, LargeSale.Run run, long buyers, long reachedService,
                         long buyersAtService) {

        @JsonProperty
        double clicksPerBuyer() {
            return buyers == 0 ? 0 : round((double) run.answers() / buyers);
        }

        /** Clicks of a buyer the service had already seen: each at most one cache hit instead of a verification. */
        @JsonProperty
        long repeatedAtService() {
            return reachedService - buyersAtService;
        }
    }

    /**
     * The three runs (HS256 first); over the signed runs, the service's JWKS fetches, sign-in refusals, signature
     * checks (its verified-token cache's misses) and clicks that cost none (its hits); JMH's figures of one
     * verification (TokenVerification's benchmarks, none when it did not run).
     */
    public record Result(List<Signed> runs, long jwksFetches, long refusals, long signatureChecks, long cacheHits,
                         List<Jmh.Score> verification) {

        /** Purchases (units sold) per second with {@code algorithm} over HS256's; null when HS256 sold none. */
        public Double over(String algorithm) {
            double hs = runs.getFirst().run().unitsPerSecond();
            return hs == 0 ? null : runs.stream().filter(r -> r.algorithm().equals(algorithm)).findFirst()
                    .map(r -> round(r.run().unitsPerSecond() / hs)).orElse(null);
        }

        @JsonProperty
        Map<String, Double> overHs256() {
            Map<String, Double> m = new LinkedHashMap<>();
            SIGNED.forEach(a -> m.put(a.getName(), over(a.getName())));
            return m;
        }

        public Section section() {
            Section s = new Section("signIn", "Sign-in: what verifying a shop's JWT costs a purchase").data(this)
                    .text("The large sale (%,d units, %,d buyers clicking as the sale page does) through the edge, "
                            + "three times in a row on one service: the stack's HS256 tokens (the shared secret), "
                            + "then RS256 (RSA 2048) and ES256 (P-256) tokens of the bench's identity provider, "
                            + "whose JWKS the service fetched at its start. Units/s: 202s over the time to the last "
                            + "202; every answer by status, code and whether the edge answered it.", LargeSale.STOCK,
                            LargeSale.BUYERS)
                    .table("tokens", "units sold/s", "over HS256", "sold out after", "answers by kind", "p50", "p99",
                            "clicks per buyer", "reached the service (buyers there)", "invariants");
            for (Signed r : runs) {
                LargeSale.Run x = r.run();
                s.row(r.algorithm(), f("%,.0f", x.unitsPerSecond()), n("%.2f x", over(r.algorithm())),
                        x.sellOutSeconds() == null ? "not sold out" : f("%.2f s", x.sellOutSeconds()), x.byKind(),
                        f("%.1f ms", x.latency().p50()), f("%.1f ms", x.latency().p99()),
                        f("%.2f", r.clicksPerBuyer()), f("%,d (%,d)", r.reachedService(), r.buyersAtService()),
                        x.invariants().ok() ? "hold" : "VIOLATED: " + x.invariants().violationLines());
            }
            s.text("During the RS256 and ES256 runs the service checked %,d signatures and answered %,d clicks from "
                    + "its verified-token cache without one (its own meters, cache_gets_total{cache=\"verified-tokens"
                    + "\"} miss and hit), fetched the JWKS %d times and refused %d tokens. Clicks that reached the "
                    + "service from a buyer it had already seen: %s. The large sale's buyers click about once each "
                    + "(a repeated click is mostly a wait after the edge's 429, which never reaches the service), so "
                    + "nearly every purchase the service answered cost a verification: the signature's worst case.",
                    signatureChecks, cacheHits, jwksFetches, refusals, String.join(", ", runs.stream()
                            .map(r -> f("%s %,d", r.algorithm(), r.repeatedAtService())).toList()));
            s.text("### One verification in-process (JMH)");
            Jmh.Score hs = verification.stream().filter(v -> v.benchmark().endsWith(".hs256")).findFirst()
                    .orElse(null);
            if (verification.isEmpty()) {
                s.text(Jmh.missing(TOKEN_VERIFICATION));
            } else {
                s.text("The service's TokenVerifier on one thread (%s, %s), and a repeated click: the same RS256 "
                        + "token through VerifiedTokens, the cache in front of it.", TOKEN_VERIFICATION,
                        verification.getFirst().run()).table("benchmark", "µs per token", "error (99.9 %)",
                        "over HS256");
                verification.forEach(v -> s.row(v.benchmark(), f("%.2f", v.score()), f("± %.2f", v.error()),
                        hs == null ? "-" : f("%.1f x", v.score() / hs.score())));
            }
            Double rs = over(JWSAlgorithm.RS256.getName());
            if (rs != null) {
                s.goal("large sale through the edge: RS256 buyers' units sold/s vs HS256 buyers'",
                        f("%.2f x (%,.0f vs %,.0f units/s)", rs, runs.get(1).run().unitsPerSecond(),
                                runs.getFirst().run().unitsPerSecond()), ">= 0.9 x", rs >= 0.9);
            }
            return s;
        }
    }

    /**
     * The signed buyers of the large sale, made now (before any measurement: signing is slow, see
     * {@link ShopIdentity}) so that the runs only read them back.
     */
    static ShopIdentity prepare(Scenario s) throws Exception {
        ShopIdentity id = ShopIdentity.in(jwksDir(s));
        for (JWSAlgorithm alg : SIGNED) {
            Progress.say("sign-in: " + LargeSale.BUYERS + " " + alg + " buyers (kept in " + jwksDir(s) + ")");
            id.users(alg, s.o().firstUser(), LargeSale.BUYERS);
        }
        return id;
    }

    /** Where bin/lib/bench.sh's JWKS server keeps the provider's keys, and the bench its tokens. */
    static Path jwksDir(Scenario s) {
        return s.stack().runDir().resolve("jwks");
    }

    /** The signed runs right after {@code hs256} (the large sale's run through the edge); JMH's figures beside. */
    static Result run(Scenario s, LargeSale.Run hs256, List<AnsweredClick> hsAttempts,
                      ShopIdentity id) throws Exception {
        List<Signed> runs = new ArrayList<>(List.of(signed("HS256", hs256, hsAttempts)));
        Map<String, Double> before = s.meters().service();
        for (JWSAlgorithm alg : SIGNED) {
            Users buyers = id.users(alg, s.o().firstUser(), LargeSale.BUYERS);
            List<AnsweredClick> attempts = new ArrayList<>();
            LargeSale.Run r = LargeSale.run(s, buyers, LargeSale.VIA_EDGE + ", " + alg, s.stack().edgePort(),
                    attempts);
            runs.add(signed(alg.getName(), r, attempts));
        }
        Map<String, Double> after = s.meters().service();
        return new Result(runs, Meters.delta(before, after, "seckill_jwks_fetches_total"),
                Meters.delta(before, after, "seckill_auth_refused_total"), tokenCache(before, after, "miss"),
                tokenCache(before, after, "hit"), Jmh.read(s.o().out()).of(TOKEN_VERIFICATION));
    }

    /** The change of the service's verified-token cache's gets with this result ("hit" or "miss"). */
    static long tokenCache(Map<String, Double> before, Map<String, Double> after, String result) {
        return Math.round(after.entrySet().stream().filter(e -> e.getKey().startsWith("cache_gets_total{")
                        && e.getKey().contains("cache=\"verified-tokens\"")
                        && e.getKey().contains("result=\"" + result + "\""))
                .mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum());
    }

    /** The run, refused when the service did not take its buyers' tokens: it would not measure a signed-in sale. */
    static Signed signed(String algorithm, LargeSale.Run r, List<AnsweredClick> attempts) {
        long refused = r.byKind().entrySet().stream().filter(e -> e.getKey().startsWith("401"))
                .mapToLong(Map.Entry::getValue).sum();
        if (refused > 0) {
            throw new IllegalStateException(f("the large sale with %s buyers counts signed-in purchases, but %,d of "
                    + "its %,d answers were 401: %s", algorithm, refused, r.answers(), r.byKind()));
        }
        var atService = attempts.stream().filter(a -> !a.byEdge() && a.status() != 0).toList();
        return new Signed(algorithm, r, attempts.stream().mapToLong(a -> a.userId()).distinct().count(),
                atService.size(), atService.stream().mapToLong(a -> a.userId()).distinct().count());
    }
}
