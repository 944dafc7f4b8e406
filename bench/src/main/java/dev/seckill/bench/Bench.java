package dev.seckill.bench;

import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Progress;
import dev.seckill.bench.report.Section;
import dev.seckill.bench.scenario.BenchOptions;
import dev.seckill.bench.scenario.Ceilings;
import dev.seckill.bench.scenario.FlashSale;
import dev.seckill.bench.scenario.FloodLevels;
import dev.seckill.bench.scenario.HotSale;
import dev.seckill.bench.scenario.LargeSale;
import dev.seckill.bench.scenario.PaymentRun;
import dev.seckill.bench.scenario.ProtectionBench;
import dev.seckill.bench.scenario.Scenario;
import dev.seckill.bench.scenario.Step;
import dev.seckill.bench.scenario.WaitingRoomRun;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.seckill.bench.report.Section.f;

/**
 * {@code bin/seckill bench}: the ceilings, the flash sale, the sold-out flood, the optional scenarios and the large
 * sale, each sale's invariants read from MySQL and Redis directly, then the report. Exits 1 when an invariant does not
 * hold (speed targets only report). Tests call {@link #run(Stack, BenchOptions)}.
 */
public final class Bench {

    /**
     * What a run found: the verdict on the invariants, every sale's check and where the report is; with payment
     * behaviour, the units lapsed orders gave back and how many of them were bought again (0 without).
     */
    public record Outcome(boolean invariantsHold, List<BenchReport.Check> checks, long unitsReturned, long unitsResold,
                          Path report) {
    }

    /**
     * The bench's steps in the order they run: the ceilings on a quiet stack, the flash sale, the flood on its sold-out
     * sale, the optional protected sales, the large sale and the waiting room, the hot sale's runs (made before, by
     * bin/lib/bench.sh), the run's CPU and memory. The report puts their sections in its own order.
     */
    private static final List<Step> STEPS = List.of(Ceilings::step, FlashSale::step, FloodLevels::step,
            ProtectionBench::step, LargeSale::step, WaitingRoomRun::step, HotSale::step, Bench::resources);

    private Bench() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            System.exit(run(Stack.get(), options).invariantsHold() ? 0 : 1);
        } catch (Exception e) {
            System.err.println("bench: failed to run the bench: " + e);
            System.exit(1);
        }
    }

    public static Outcome run(Stack stack, BenchOptions o) throws Exception {
        BenchReport.Machine machine = BenchReport.Machine.now();
        RedissonClient redis = StackRedis.connect(stack, RedisClients::connect);
        Path out = o.out().toAbsolutePath();
        try (Sampler sampler = new Sampler(stack, out)) {
            Progress.say("minting " + o.users() + " user tokens");
            Scenario s = new Scenario(stack, sampler, new Users(stack.tokenSecret(), o.firstUser(), o.users()), o,
                    redis);
            List<Section> sections = new ArrayList<>();
            for (Step step : STEPS) {
                sections.addAll(step.run(s));
            }
            Scenario.Found found = s.found();
            BenchReport report = new BenchReport(machine.finished(), scenario(o, stack), s.checks(), sections);
            report.write(out, found.timeline().buckets);
            new Charts(found.timeline(), sampler.samples(), sampler.marks(), found.numbers()).write(out);
            summary(report, found.numbers(), out);
            PaymentRun.Result payments = found.payments();
            return new Outcome(report.ok(), List.copyOf(s.checks()),
                    payments == null ? 0 : payments.returned(), payments == null ? 0 : payments.resold(),
                    out.resolve("report.md"));
        } finally {
            redis.shutdown();
        }
    }

    /**
     * The memory and the CPU of the run, each part's over the flash sale, at rest before it and over the whole bench:
     * the last step, once every other step's load is in the samples.
     */
    private static List<Section> resources(Scenario s) {
        List<Sampler.Sample> samples = s.sampler().samples();
        FlashSale.Result sale = s.found().flashSale();
        return List.of(Sampler.memory(samples, sale.t0(), sale.end()),
                Sampler.cpuSection(samples, sale.t0(), sale.end(), sale.atRest()));
    }

    private static Map<String, Object> scenario(BenchOptions o, Stack t) {
        Map<String, Object> m = new LinkedHashMap<>(Map.of("stock", o.stock(), "users", o.users()));
        m.put("clicksPerUser", o.attempts());
        m.put("connections", o.connections());
        m.put("maxSeconds", o.duration().toSeconds());
        m.put("edge", t.edgeUrl());
        if (!o.floodLevels().isEmpty()) {
            m.putAll(Map.of("floodLevels", o.floodLevels(), "floodSecondsPerLevel", o.floodTime().toSeconds()));
        }
        if (o.payments()) {
            m.putAll(Map.of("payRatio", o.payRatio(), "payWindowSeconds", o.payWindow().toSeconds(),
                    "expiryOrders", o.expiryOrders()));
        }
        if (o.ceilings()) {
            m.putAll(Map.of("ceilingRounds", o.rounds(), "ceilingSecondsPerRound", o.ceilingTime().toSeconds()));
        }
        m.put("protection", o.protection());
        m.put("waitingRoom", o.waitingRoom());
        m.put("signIn", o.signIn());
        m.put("profile", o.profile() ? "bin/seckill profile, large sale through the edge" : false);
        return m;
    }

    private static void summary(BenchReport r, FlashSale n, Path out) {
        System.out.println(f("flash sale %d: %,d answers, %,.0f req/s, p50 %.2f ms, p99 %.2f ms, max %.2f ms; sold out "
                        + "(last 202) at %s s; edge share after sell-out %s; writer drained in %s s", n.saleId(),
                n.requests(), n.rps(), n.latency().p50(), n.latency().p99(), n.latency().max(),
                Section.n("%.3f", n.sellOutAt()), n.edgeShareAfterSellOut() == null ? "-"
                        : f("%.1f %%", 100 * n.edgeShareAfterSellOut()), Section.n("%.2f", n.drainSeconds())));
        for (Section.Goal g : r.goals()) {
            System.out.println((g.met() ? "  met      " : "  NOT MET  ") + g.name() + ": " + g.measured() + " ("
                    + g.target() + ")");
        }
        for (BenchReport.Check c : r.invariants()) {
            System.out.println((c.ok() ? "  holds    " : "  VIOLATED ") + c.sale() + ": " + c.check().summary()
                    + (c.soldCount() == null ? "" : "; " + c.soldCount()));
        }
        System.out.println("report: " + out.resolve("report.md") + " (and report.json, *.png)");
    }
}
