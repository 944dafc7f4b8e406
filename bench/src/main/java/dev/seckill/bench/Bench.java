package dev.seckill.bench;

import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.measure.Timeline;
import dev.seckill.bench.report.Charts;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Progress;
import dev.seckill.bench.report.Section;
import dev.seckill.bench.scenario.Ceilings;
import dev.seckill.bench.scenario.FlashSale;
import dev.seckill.bench.scenario.FloodLevels;
import dev.seckill.bench.scenario.HotSale;
import dev.seckill.bench.scenario.LargeSale;
import dev.seckill.bench.scenario.PaymentRun.Payers;
import dev.seckill.bench.scenario.PaymentRun;
import dev.seckill.bench.scenario.ProtectionBench;
import dev.seckill.bench.scenario.Scenario;
import dev.seckill.bench.scenario.WaitingRoomRun;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

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
        try (Sampler sampler = new Sampler(stack, new AdminSales(stack, new HttpJson()), out)) {
            Progress.say("minting " + o.users() + " user tokens");
            Scenario s = new Scenario(stack, sampler, new Users(stack.tokenSecret(), o.firstUser(), o.users()),
                    o, redis, new ArrayList<>());
            Ceilings.Result ceilings = o.ceilings() ? new Ceilings(s).run() : null;
            FlashSale.Result sale;
            PaymentRun.Result payments = null;
            if (o.payments()) {
                try (Payers payers = new Payers(stack.edgeUrl(), s.users(), o.payRatio(), o.payWindow())) {
                    sale = FlashSale.run(s, payers);
                    payments = PaymentRun.run(s, sale, payers);
                    // Lapsed units are sold again, so the sale's rows are no longer min(stock, shoppers).
                    s.check("flash sale", sale.saleId(), payments.attempts(), null);
                }
            } else {
                sale = FlashSale.run(s, null);
                Progress.say("checking the invariants in MySQL and Redis");
                // Every user of the crowd tried, so the stock went to exactly min(stock, users who got an answer).
                s.check("flash sale", sale.saleId(), sale.attempts(), sale.attempts().stream()
                        .filter(a -> a.status() != 0).mapToLong(AnsweredClick::userId).distinct().count());
            }
            s.checks().addFirst(s.checks().removeLast()); // the flash sale's first, after the ceilings' own
            Section floods = FloodLevels.section(flood(s, sale), o);
            // After the flood, so that it measures a quiet stack.
            Section protection = o.protection() ? new ProtectionBench(s).run() : null;
            LargeSale.Result large = o.largeSale() ? LargeSale.run(s) : null;
            Section line = o.waitingRoom() ? WaitingRoomRun.run(s) : null;
            // The hot sale's two runs, which bin/lib/bench.sh made before this one (a service restart each).
            List<HotSale.Run> hot = HotSale.read(out);
            hot.forEach(h -> s.checks().add(new BenchReport.Check("hot sale, " + h.mode(), h.invariants(), null)));

            List<Sampler.Sample> samples = sampler.samples();
            Timeline t = new Timeline(sale.attempts());
            FlashSale numbers = FlashSale.of(sale, t, o.stock());
            Measured shortCircuit = ceilings == null ? null : ceilings.best().get(Ceilings.SHORT_CIRCUIT_CLIENT);
            List<Section> sections = Stream.of(numbers.section(shortCircuit == null ? null : shortCircuit.rps(),
                    o.connections()), Sampler.memory(samples, sale.t0(), sale.end()), Sampler.cpuSection(samples,
                    sale.t0(), sale.end(), sale.atRest()), floods, HotSale.section(hot),
                    ceilings == null ? null : ceilings.section(o),
                    payments == null ? null : payments.section(), protection,
                    large == null ? null : large.section(), large == null || large.signIn() == null ? null
                            : large.signIn().section(), line)
                    .filter(Objects::nonNull).toList();
            BenchReport report = new BenchReport(machine.finished(), scenario(o, stack), s.checks(), sections);
            report.write(out, new Charts(t, samples, sampler.marks(), numbers));
            summary(report, numbers, out);
            return new Outcome(report.ok(), List.copyOf(s.checks()),
                    payments == null ? 0 : payments.returned(), payments == null ? 0 : payments.resold(),
                    out.resolve("report.md"));
        } finally {
            redis.shutdown();
        }
    }

    /** The flood levels on the flash sale's sale, once it has sold out (a sale with stock left would sell on). */
    private static List<FloodLevels.Level> flood(Scenario s, FlashSale.Result sale) throws Exception {
        // Now, not at the crowd's end: with payments, lapsed units went on sale again since.
        Long remaining = s.stats(sale.saleId()).redisRemaining();
        if (s.o().floodLevels().isEmpty() || remaining == null || remaining != 0) {
            Progress.say(s.o().floodLevels().isEmpty() ? "sold-out flood: none asked for" : "sold-out flood: skipped, sale "
                    + sale.saleId() + " did not sell out (remaining " + remaining + ")");
            return List.of();
        }
        return new FloodLevels(s).run(sale.saleId());
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
