package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.Meters;
import dev.seckill.check.SaleSummary;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.bench.report.Section;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

import static dev.seckill.bench.report.Section.f;
import static dev.seckill.bench.report.Section.round;

/**
 * The hot sale: distinct buyers click one sale's purchase over every connection straight to the service.
 * bin/lib/bench.sh runs this main twice, restarting the service with {@code redis.coalesce-max} 1 (one purchase.lua
 * call per buyer), then with its default (coalescing); each leaves hot-sale-MODE.json for {@link Bench} to read.
 */
public final class HotSale {

    public static final int STOCK = 100_000;
    public static final String ONE_CALL = "one-call";
    public static final String COALESCING = "coalescing";
    /** Distinct buyers: far more than one run makes decisions on this machine. */
    private static final int BUYERS = 200_000;

    /** One run; {@code attemptsPerCall}: attempts decided per script call (0 when the service does not say). */
    public record Run(String mode, String coalesceMax, long saleId, Measured measured, double attemptsPerCall,
               int reconciled, SaleSummary invariants) {

        /** Answers that decided the attempt (202, 409, 410, 429) per second: a 503 or no answer decided nothing. */
        public double decisionsPerSecond() {
            long undecided = measured.count("503") + measured.count("0");
            return measured.seconds() > 0 ? (measured.requests() - undecided) / measured.seconds() : 0;
        }
    }

    /** {@code --mode one-call|coalescing --coalesce-max N|default --seconds S --connections N --out DIR}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        Run run = run(Stack.get(), a.get("--mode"), a.get("--coalesce-max"),
                Duration.ofSeconds(Long.parseLong(a.get("--seconds"))), Integer.parseInt(a.get("--connections")));
        Path out = Files.createDirectories(Path.of(a.get("--out")).toAbsolutePath());
        Section.JSON.writeValue(out.resolve("hot-sale-" + run.mode() + ".json").toFile(), run);
        Progress.say("hot sale, " + run.mode() + ": " + run.invariants().summary());
        System.exit(run.invariants().ok() ? 0 : 1);
    }

    public static Run run(Stack stack, String mode, String coalesceMax, Duration d, int connections) throws Exception {
        Scenario s = new Scenario(stack, null, new Users(stack.tokenSecret(), 1, BUYERS), null, null);
        long sale = s.sale("hot-sale-" + mode, STOCK);
        IntFunction<LoadClient.Request> buyer = i -> s.purchase(sale, Math.floorMod(i, BUYERS),
                stack.servicePort());
        List<AnsweredClick> attempts = new ArrayList<>();
        // The service was just restarted: a warm-up by other buyers (from the last one down), off cold code.
        Scenario.steady(stack.servicePort(), connections, "hot sale warm-up", i -> buyer.apply(BUYERS - 1 - i),
                Duration.ofSeconds(3), attempts, false);
        Map<String, Double> before = s.meters().service();
        Measured measured = Scenario.steady(stack.servicePort(), connections, "hot sale, " + mode, buyer, d,
                attempts, false);
        Map<String, Double> after = s.meters().service();
        double calls = Meters.delta(before, after, "seckill_purchase_batch_size_attempts_count");
        double decided = Meters.delta(before, after, "seckill_purchase_batch_size_attempts_sum");
        Scenario.Settled settled = s.settle("hot sale", sale, attempts);
        return new Run(mode, coalesceMax, sale, measured, calls > 0 ? round(decided / calls) : 0,
                settled.reconciled(), settled.invariants());
    }

    /** The runs bin/lib/bench.sh left in {@code out}, one-call first; empty when it ran none. */
    public static List<Run> read(Path out) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String mode : List.of(ONE_CALL, COALESCING)) {
            Path f = out.resolve("hot-sale-" + mode + ".json");
            if (Files.exists(f)) {
                runs.add(Section.JSON.readValue(f.toFile(), Run.class));
            }
        }
        return runs;
    }

    /** Coalescing's decisions per second over one call per buyer's; null unless both ran. */
    public static Double ratio(List<Run> runs) {
        return runs.size() < 2 || runs.get(0).decisionsPerSecond() == 0 ? null
                : runs.get(1).decisionsPerSecond() / runs.get(0).decisionsPerSecond();
    }

    /**
     * The bench's step: the hot sale's two runs, which bin/lib/bench.sh made before the bench (a service restart
     * each), read from the report's directory, their checks added to the run's.
     */
    public static List<Section> step(Scenario s) throws IOException {
        List<Run> hot = read(s.o().out());
        hot.forEach(h -> s.checks().add(new BenchReport.Check("hot sale, " + h.mode(), h.invariants(), null)));
        return hot.isEmpty() ? List.of() : List.of(section(hot));
    }

    /** The report's section ("hotSale" in report.json: the runs and their ratio) and its target. */
    static Section section(List<Run> runs) {
        Section s = new Section("hotSale", "Hot sale: coalescing against one script call per buyer").text("One sale of "
                + "%,d units, distinct buyers straight to the service after a 3 s warm-up; decisions: answers other "
                + "than 503. `redis.coalesce-max` 1 (one `purchase.lua` call per buyer), then the service restarted "
                + "with its default (buyers waiting while a call is in flight go in the next).", STOCK)
                .table("run", "redis.coalesce-max", "decisions/s", "p50", "p99", "answers", "attempts per script call",
                        "reconcile actions after 503s", "invariants");
        for (Run r : runs) {
            Measured.Latency l = r.measured().latency();
            s.row(r.mode(), r.coalesceMax(), f("%,.0f", r.decisionsPerSecond()), f("%.1f ms", l.p50()),
                    f("%.1f ms", l.p99()), r.measured().byKind(), Section.n("%.2f", r.attemptsPerCall() > 0
                            ? r.attemptsPerCall() : null), r.reconciled(),
                    r.invariants().ok() ? "hold" : "VIOLATED: " + r.invariants().violationLines());
        }
        Double ratio = ratio(runs);
        if (ratio == null) {
            return s.data(Map.of("runs", runs));
        }
        Run one = runs.get(0);
        Run co = runs.get(1);
        return s.text("Coalescing / one call per buyer: **%.2f x** decisions per second.", ratio)
                .goal("hot sale, decisions/s: coalescing vs one script call per buyer", f("%.2f x (%,.0f vs %,.0f "
                        + "decisions/s; p99 %.1f vs %.1f ms; %.2f attempts per call)", ratio, co.decisionsPerSecond(),
                        one.decisionsPerSecond(), co.measured().latency().p99(), one.measured().latency().p99(),
                        co.attemptsPerCall()), ">= 2 x", ratio >= 2)
                .data(Map.of("runs", runs, "ratio", round(ratio)));
    }
}
