package dev.seckill.bench;

import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code bin/seckill bench}: the ceilings of the machine ({@link Ceilings}), then the flash sale ({@link FlashSale}),
 * then the sold-out flood at several connection counts ({@link FloodLevels}), then the invariant check of every sale the run created, read from MySQL and Redis directly ({@link Invariants}),
 * then the report (JSON, Markdown, PNG charts). Exits 1 when an invariant does not hold (speed targets only report).
 * Tests call {@link #run(Stack, BenchOptions)}.
 */
public final class Bench {

    /** What a run found: the report's verdict on the invariants and where the report is. */
    /**
     * @param unitsReturned with payment behaviour: units lapsed orders gave back (0 without)
     * @param unitsResold   with payment behaviour: of those, units bought again (0 without)
     */
    public record Outcome(boolean invariantsHold, List<Invariants.Report> checks, long unitsReturned, long unitsResold,
                          Path report) {
    }

    private Bench() {
    }

    public static void main(String[] args) {
        Logger.getLogger("").setLevel(Level.WARNING);
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            Outcome o = run(Stack.get(), options);
            System.exit(o.invariantsHold() ? 0 : 1);
        } catch (Exception e) {
            System.err.println("bench: failed to run the bench: " + e);
            System.exit(1);
        }
    }

    public static Outcome run(Stack stack, BenchOptions o) throws Exception {
        Machine machine = Machine.now();
        Admin admin = new Admin(stack);
        RedissonClient redis = StackRedis.connect(stack, RedisClients::connect);
        ServiceProfiler profiler = null;
        try (Sampler sampler = new Sampler(stack, admin, Duration.ofMillis(250));
             Connection db = stack.db()) {
            say("minting " + o.users() + " user tokens");
            Users users = new Users(stack.tokenSecret(), o.firstUser(), o.users());
            Path out = o.out().toAbsolutePath();
            long servicePid = stack.pid("service") > 0 ? stack.pid("service") : stack.pid("service-1");
            profiler = o.profile() ? ServiceProfiler.start(servicePid, stack.runDir(), out) : null;
            Ceilings.Result ceilings = o.ceilings() ? new Ceilings(stack, admin, users, o, sampler).run(redis) : null;
            FlashSale.Result sale;
            PaymentRun.Result payments = null;
            List<Invariants.Report> raw = new ArrayList<>();
            if (o.payments()) {
                try (Payers payers = new Payers(stack.edgeUrl(), users, o.payRatio(), o.payWindow())) {
                    sale = FlashSale.run(stack, admin, sampler, users, o, payers);
                    payments = PaymentRun.run(stack, admin, o, sale, payers);
                    say("checking the invariants in MySQL and Redis");
                    // Lapsed units are sold again, so the sale's rows are no longer min(stock, shoppers).
                    raw.add(Invariants.check(db, redis, sale.saleId(), payments.attempts()));
                }
            } else {
                sale = FlashSale.run(stack, admin, sampler, users, o, null);
                say("checking the invariants in MySQL and Redis");
                // Every user of the crowd tried; the stock must be sold to exactly min(stock, users who got an answer).
                long shoppers = sale.attempts().stream().filter(a -> a.status() != 0).mapToLong(Attempt::userId)
                        .distinct().count();
                RedissonClient saleRedis = StackRedis.forKey(stack, Keys.stock(sale.saleId()), RedisClients::connect);
                try {
                    raw.add(Invariants.check(db, saleRedis, sale.saleId(), sale.attempts(), shoppers));
                } finally {
                    saleRedis.shutdown();
                }
            }
            // The sold-out flood at each connection level, once the sale's invariants were read.
            List<FloodLevels.Level> floods = flood(stack, admin, sampler, o, sale);
            Section profile = profiler == null ? null : profiler.stop();
            List<Report.Check> checks = new ArrayList<>();
            checks.add(Report.Check.of("flash sale", raw.get(0)));
            if (ceilings != null) {
                for (Ceilings.PurchaseSale p : ceilings.sales()) {
                    raw.add(Invariants.check(db, redis, p.saleId(), p.attempts()));
                    checks.add(Report.Check.of("purchase path", raw.get(raw.size() - 1)));
                }
            }
            // Issue 15, after the flood so that it measures a quiet stack.
            ProtectionBench.Run protection = o.protection()
                    ? ProtectionBench.run(stack, admin, users, o, sampler) : null;
            for (Ceilings.PurchaseSale p : protection == null ? List.<Ceilings.PurchaseSale>of() : protection.sales()) {
                raw.add(Invariants.check(db, redis, p.saleId(), p.attempts()));
                checks.add(Report.Check.of("protection", raw.get(raw.size() - 1)));
            }
            // The large sale through the edge and straight to the service, with each part's own cost beside it.
            LargeSale.Result large = o.largeSale() ? LargeSale.run(stack, admin, sampler, redis, o) : null;
            for (LargeSale.Run r : large == null ? List.<LargeSale.Run>of() : large.runs()) {
                raw.add(r.invariants());
                checks.add(Report.Check.of("large sale, " + r.route(), r.invariants()));
            }
            // The hot sale's two runs, which bin/lib/bench.sh made before this one (a service restart each), are
            // checked like every other sale of the run.
            List<HotSale.Run> hot = HotSale.read(out);
            for (HotSale.Run h : hot) {
                raw.add(h.invariants());
                checks.add(Report.Check.of("hot sale, " + h.mode(), h.invariants()));
            }
            boolean hold = raw.stream().allMatch(Invariants.Report::ok);

            List<Sampler.Sample> samples = sampler.samples();
            Timeline t = new Timeline(sale.attempts());
            FlashSaleNumbers numbers = FlashSaleNumbers.of(sale, t, o.stock());
            List<Memory> memory = Memory.of(samples, sale.t0(), sale.end());
            List<CpuWindow.Cpu> cpu = new ArrayList<>();
            cpu.add(CpuWindow.cpu("flash sale", samples, sale.t0(), sale.end()));
            if (!samples.isEmpty()) {
                cpu.add(CpuWindow.cpu("whole bench", samples, samples.get(0).nanos(), samples.get(samples.size() - 1).nanos()));
            }
            Report report = new Report(machine.finished(), scenario(o, stack), hold,
                    Goals.of(o, ceilings, ceilings == null ? List.of() : ceilings.ratios(), numbers, floods, memory,
                            hot, large == null ? List.of() : large.runs(), large == null ? null : large.parts(), hold),
                    checks, numbers, Report.timeline(t), memory, cpu,
                    List.of(Report.THROUGHPUT_PNG, Report.LATENCY_PNG, Report.MEMORY_PNG, Report.CPU_PNG), ceilings);
            report.write(out, t, samples, sampler.marks());
            if (ceilings != null) {
                ceilings.section(o).addTo(out);
            }
            FloodLevels.addTo(out, floods, o);
            if (payments != null) {
                payments.section().addTo(out);
            }
            if (profile != null) {
                profile.addTo(out);
            }
            if (protection != null) {
                protection.section().addTo(out);
            }
            HotSale.addTo(out, hot);
            if (large != null) {
                large.section().addTo(out);
            }
            summary(report, out);
            return new Outcome(hold, raw, payments == null ? 0 : payments.returned(),
                    payments == null ? 0 : payments.resold(), out.resolve("report.md"));
        } finally {
            if (profiler != null) {
                profiler.close();
            }
            redis.shutdown();
        }
    }

    /** The flood levels on the flash sale's sale, once it has sold out (a sale with stock left would sell on). */
    private static List<FloodLevels.Level> flood(Stack stack, Admin admin, Sampler sampler, BenchOptions o,
                                                 FlashSale.Result sale) throws Exception {
        if (o.floodLevels().isEmpty()) {
            return List.of();
        }
        Long remaining = sale.finalStats().redisRemaining();
        if (remaining == null || remaining != 0) {
            say("sold-out flood: skipped, sale " + sale.saleId() + " did not sell out (remaining " + remaining + ")");
            return List.of();
        }
        return new FloodLevels(stack, admin, sampler, o).run(sale.saleId());
    }

    private static Map<String, Object> scenario(BenchOptions o, Stack t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stock", o.stock());
        m.put("users", o.users());
        m.put("clicksPerUser", o.attempts());
        m.put("connections", o.connections());
        m.put("maxSeconds", o.duration().toSeconds());
        m.put("edge", t.edgeUrl());
        if (!o.floodLevels().isEmpty()) {
            m.put("floodLevels", o.floodLevels());
            m.put("floodSecondsPerLevel", o.floodTime().toSeconds());
        }
        if (o.payments()) {
            m.put("payRatio", o.payRatio());
            m.put("payWindowSeconds", o.payWindow().toSeconds());
            m.put("expiryOrders", o.expiryOrders());
        }
        if (o.protection()) {
            m.put("protection", true);
        }
        if (o.profile()) {
            m.put("profile", "async-profiler");
        }
        if (o.ceilings()) {
            m.put("ceilingRounds", o.rounds());
            m.put("ceilingSecondsPerRound", o.ceilingTime().toSeconds());
        }
        return m;
    }

    private static void summary(Report r, Path out) {
        FlashSaleNumbers n = r.flashSale();
        System.out.println(String.format(Locale.ROOT, "flash sale %d: %,d answers, %,.0f req/s, p50 %.2f ms, p99 %.2f ms, "
                        + "max %.2f ms; sold out (last 202) at %s s; edge share after sell-out %s; writer drained in %s s",
                n.saleId(), n.requests(), n.rps(), n.latency().p50(), n.latency().p99(), n.latency().max(),
                n.sellOutAt() == null ? "-" : String.format(Locale.ROOT, "%.3f", n.sellOutAt()),
                n.edgeShareAfterSellOut() == null ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * n.edgeShareAfterSellOut()),
                n.drainSeconds() == null ? "-" : String.format(Locale.ROOT, "%.2f", n.drainSeconds())));
        for (Report.Goal g : r.goals()) {
            System.out.println((g.met() ? "  met      " : "  NOT MET  ") + g.name() + ": " + g.measured() + " (" + g.target() + ")");
        }
        for (Report.Check c : r.invariants()) {
            System.out.println((c.ok() ? "  holds    " : "  VIOLATED ") + c.sale() + " " + c.saleId() + ": oversold "
                    + c.oversold() + ", duplicates " + c.duplicates() + ", lost " + c.lost()
                    + (c.ok() ? "" : ", " + c.violations()));
        }
        System.out.println("report: " + out.resolve("report.md") + " (and report.json, *.png)");
    }

    static void say(String message) {
        System.err.println("bench: " + message);
    }
}
