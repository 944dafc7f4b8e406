package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Jmh;
import dev.seckill.bench.report.Section;

import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * {@code bench --protection}, the section "protection": what the protection gate costs the service in-process and
 * what a solve costs a bot, the microbench module's {@code ProtectionCheck} as JMH measured it ({@value Jmh#FILE}).
 */
public record ProtectionBench(Scenario s) {

    /** The bench's step with --protection. */
    public static List<Section> step(Scenario s) throws Exception {
        return s.o().protection() ? List.of(new ProtectionBench(s).run()) : List.of();
    }

    public Section run() throws Exception {
        s.sampler().mark("protection");
        Section section = new Section("protection", "Protected sales (`--protection`)");
        return section.data(Map.of("jmh", inProcess(section, Jmh.read(s.o().out()))));
    }

    /** The tables of JMH's figures of the in-process costs (ProtectionCheck), added to {@code s}; those figures. */
    static List<Jmh.Score> inProcess(Section s, Jmh jmh) {
        List<Jmh.Score> scores = jmh.of("ProtectionCheck");
        s.text("### The service's CPU per purchase, in-process (JMH)");
        if (scores.isEmpty()) {
            s.text(Jmh.missing("ProtectionCheck"));
            return scores;
        }
        s.text("""
                The service's classes under JMH (average time, %s, error at 99.9%%; the best iteration is the one \
                neighbours disturbed least): the purchase decision unprotected (plainDecision) and protected \
                (pathCheck: one HMAC-SHA-256 of the path, no lookup), the token check (one HMAC), the purchase.lua \
                call's Java side (scriptCall; Redis stubbed). A solution costs one SHA-256, one HMAC and one Redis \
                SET NX per path issued.""", scores.getFirst().run())
                .table("benchmark", "score", "error", "best iteration");
        List<Jmh.Score> solves = scores.stream().filter(r -> r.params().containsKey("bits")).toList();
        for (Jmh.Score r : scores.stream().filter(r -> !solves.contains(r)).toList()) {
            s.row(r.benchmark(), f("**%.1f** %s", r.score(), r.unit()), f("± %.1f", r.error()),
                    f("%.1f %s", r.best(), r.unit()));
        }
        var plain = jmh.get("ProtectionCheck.plainDecision");
        var path = jmh.get("ProtectionCheck.pathCheck");
        if (plain.isPresent() && path.isPresent()) {
            s.text("Checking a path adds **%.2f µs** of CPU per purchase (pathCheck - plainDecision, best iterations).",
                    (path.get().best() - plain.get().best()) / 1000);
        }
        s.text("""
                ### A bot's solve time per difficulty (Java, one core, JMH)

                Fresh salts solved by counting nonces up from 0 as the sale page does, as many as fit in the measured \
                iterations. A bot pays 2^bits hashes per path, that is per purchase attempt, and cannot start before \
                the sale does.""").table("bits", "salts", "mean hashes", "mean solve", "hashes/s");
        for (Jmh.Score r : solves) {
            double hashes = r.counters().get("hashes");
            double salts = r.counters().get("solves");
            s.row(r.params().get("bits"), (long) salts, f("%,.0f", hashes / salts),
                    f("%.2f ± %.2f ms", r.score(), r.error()), f("%,.0f", hashes / (salts * r.score() / 1000)));
        }
        return scores;
    }
}
