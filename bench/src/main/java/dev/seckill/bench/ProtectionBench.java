package dev.seckill.bench;

import dev.seckill.testkit.Stack;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/seckill bench --protection}, after the flood: what protected sales cost ({@link PathCost} over HTTP,
 * {@link ProtectionCosts} in-process under JMH) and what the challenge does to a sale's first seconds
 * ({@link ArrivalCurve}), as the report's section "protection" (JMH's own JSON under {@code jmh}).
 */
final class ProtectionBench {

    private ProtectionBench() {
    }

    /** The section for the report, and the sales it made (to be checked like the flash sale). */
    record Run(Section section, List<Ceilings.PurchaseSale> sales) {
    }

    static Run run(Stack stack, Admin admin, Users users, BenchOptions o, Sampler sampler) throws Exception {
        sampler.mark("protection");
        List<Ceilings.PurchaseSale> sales = new ArrayList<>();
        List<Measured> cost = new PathCost(stack, admin, users, o).run(sales);
        Bench.say("protection: JMH, the in-process checks and a bot's solve time per difficulty");
        Path json = Files.createDirectories(o.out()).resolve("protection-jmh.json");
        Collection<RunResult> jmh = new Runner(new OptionsBuilder().include(ProtectionCosts.class.getName() + "\\.")
                .warmupIterations(2).warmupTime(TimeValue.milliseconds(300)).measurementIterations(5)
                .measurementTime(TimeValue.milliseconds(300)).forks(1).shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT).resultFormat(ResultFormatType.JSON).result(json.toString()).build())
                .run();
        ArrivalCurve.Result arrival = ArrivalCurve.run(stack, admin, users, Math.min(users.size(), 500), sales);
        Section s = new Section("protection", "Protected sales (`--protection`)");
        List<Ratio> ratios = PathCost.addTo(s, cost);
        s.text("""
                ### The service's CPU per purchase, in-process (JMH)

                The service's own classes under JMH (average time, 1 fork, 2 x 0.3 s warm-up, 5 x 0.3 s measured, \
                error at 99.9%; the best iteration is the one neighbours disturbed least): the purchase decision of \
                an unprotected sale (plainDecision) and of a protected one (pathCheck: one HMAC-SHA-256 of the path, \
                no lookup), the bearer token check (one HMAC), and the purchase.lua call's Java side (scriptCall: \
                keys, arguments, reply to outcome; Redis stubbed). A solution costs one SHA-256, one HMAC and one \
                Redis SET NX per path issued.""")
                .table("benchmark", "score", "error", "best iteration");
        Map<String, Double> ns = new HashMap<>();
        for (RunResult r : jmh) {
            Result<?> p = r.getPrimaryResult();
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            ns.put(name, p.getStatistics().getMin());
            if (r.getParams().getParam("bits") == null) {
                s.row(name, Section.f("**%.1f** %s", p.getScore(), p.getScoreUnit()), Section.f("± %.1f",
                        p.getScoreError()), Section.f("%.1f %s", p.getStatistics().getMin(), p.getScoreUnit()));
            }
        }
        s.text("Checking a path adds **%.2f µs** of CPU per purchase (pathCheck - plainDecision, best iterations).",
                (ns.get("pathCheck") - ns.get("plainDecision")) / 1000).text("""
                ### A bot's solve time per difficulty (Java, one core, JMH)

                Fresh salts solved by counting nonces up from 0 as the sale page does, as many as fit in 5 x 0.3 s. A \
                bot pays 2^bits hashes per path, that is per purchase attempt, and cannot start before the sale does.\
                """).table("bits", "salts", "mean hashes", "mean solve", "hashes/s");
        for (RunResult r : jmh) {
            if (r.getParams().getParam("bits") != null) {
                double hashes = r.getSecondaryResults().get("hashes").getScore();
                double salts = r.getSecondaryResults().get("solves").getScore();
                Result<?> p = r.getPrimaryResult();
                s.row(r.getParams().getParam("bits"), (long) salts, Section.f("%,.0f", hashes / salts),
                        Section.f("%.2f ± %.2f ms", p.getScore(), p.getScoreError()),
                        Section.f("%,.0f", hashes / (salts * p.getScore() / 1000)));
            }
        }
        ArrivalCurve.addTo(s, arrival);
        return new Run(s.data(Map.of("costRounds", cost, "ratios", ratios, "jmh",
                ReportSections.JSON.readTree(json.toFile()), "arrival", arrival)), sales);
    }
}
