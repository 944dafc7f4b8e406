package dev.seckill.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.testkit.Stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The hot sale (issue 17): one sale with large stock, {@code connections} connections of distinct buyers clicking
 * its purchase as fast as the service answers, straight to the service (the edge's admission would cap both runs
 * alike). bin/lib/bench.sh runs it twice in one bench, restarting the service in between: once with
 * {@code redis.coalesce-max} 1 (one purchase.lua call per buyer) and once with the service's default (coalescing).
 * Each run writes {@code hot-sale-<mode>.json} into the report directory; {@link Bench} puts both, their ratio and
 * their invariant checks into the report. Decisions per second count every answer (202, or a refusal once stock or a
 * buyer's bucket says so); script calls per decision come from the service's {@code seckill.purchase.batch.size}.
 */
public final class HotSale {

    static final int STOCK = 100_000;
    static final String ONE_CALL = "one-call";
    static final String COALESCING = "coalescing";
    private static final String FILE_PREFIX = "hot-sale-";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One run: the service's setting, the load measured, attempts decided per script call (0 when the service does
     * not say), and the sale's invariant check.
     */
    record Run(String mode, String coalesceMax, long saleId, Measured measured, double attemptsPerCall,
               int reconciled, Invariants.Report invariants) {

        /** Answers that decided the attempt (202, 409, 410, 429) per second: a 503 or no answer decided nothing. */
        double decisionsPerSecond() {
            long undecided = measured.count("503") + measured.count("0");
            return measured.seconds() > 0 ? (measured.requests() - undecided) / measured.seconds() : 0;
        }
    }

    private HotSale() {
    }

    /** {@code --mode one-call|coalescing --coalesce-max N|default --seconds S --connections N --out DIR}. */
    public static void main(String[] args) {
        Logger.getLogger("").setLevel(Level.WARNING);
        Map<String, String> a = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        try {
            Run run = run(Stack.get(), a.getOrDefault("--mode", COALESCING), a.getOrDefault("--coalesce-max", "default"),
                    Duration.ofSeconds(Long.parseLong(a.getOrDefault("--seconds", "10"))),
                    Integer.parseInt(a.getOrDefault("--connections", "256")));
            Path out = Path.of(a.getOrDefault("--out", "report")).toAbsolutePath();
            Files.createDirectories(out);
            JSON.writeValue(out.resolve(FILE_PREFIX + run.mode() + ".json").toFile(), run);
            Bench.say(line(run));
            System.exit(run.invariants().ok() ? 0 : 1);
        } catch (Exception e) {
            System.err.println("bench: the hot sale failed: " + e);
            System.exit(1);
        }
    }

    static Run run(Stack stack, String mode, String coalesceMax, Duration d, int connections) throws Exception {
        Admin admin = new Admin(stack);
        // Enough distinct buyers for far more decisions than one run makes on this machine.
        int n = 200_000;
        Bench.say("hot sale (" + mode + ", redis.coalesce-max " + coalesceMax + "): minting " + n + " user tokens");
        Users users = new Users(stack.tokenSecret(), 1, n);
        long sale = admin.createSale("bench-hot-sale-" + mode + "-" + System.currentTimeMillis(), STOCK);
        int port = stack.servicePort();
        List<Attempt> attempts = new ArrayList<>();
        // The service was just restarted: a warm-up, by other buyers, so that the measurement does not run on cold code.
        Ceilings.steady(port, connections, "hot sale warm-up", i -> purchase(users, sale, n - 1 - (i % n), port),
                Duration.ofSeconds(3), attempts, false);
        Map<String, Double> before = admin.serviceMetrics();
        Measured measured = Ceilings.steady(port, connections, "hot sale, " + mode,
                i -> purchase(users, sale, i % n, port), d, attempts, false);
        Map<String, Double> after = admin.serviceMetrics();
        double calls = delta(before, after, "seckill_purchase_batch_size_attempts_count");
        double decided = delta(before, after, "seckill_purchase_batch_size_attempts_sum");
        Settled settled = Settled.of(stack, admin, "hot sale", sale, attempts);
        return new Run(mode, coalesceMax, sale, measured, calls > 0 ? Report.round(decided / calls) : 0,
                settled.reconciled(), settled.invariants());
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String name) {
        return after.getOrDefault(name, 0.0) - before.getOrDefault(name, 0.0);
    }

    private static LoadClient.Request purchase(Users users, long sale, int i, int port) {
        return new LoadClient.Request(users.purchase(i, sale, port), users.id(i));
    }

    /** The runs bin/lib/bench.sh left in {@code out}, one-call first; empty when it ran none. */
    static List<Run> read(Path out) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String mode : List.of(ONE_CALL, COALESCING)) {
            Path f = out.resolve(FILE_PREFIX + mode + ".json");
            if (Files.exists(f)) {
                runs.add(JSON.readValue(f.toFile(), Run.class));
            }
        }
        return runs;
    }

    /** Coalescing's decisions per second over one call per buyer's; null unless both ran. */
    static Double ratio(List<Run> runs) {
        Run one = find(runs, ONE_CALL);
        Run co = find(runs, COALESCING);
        return one == null || co == null || one.decisionsPerSecond() == 0 ? null
                : co.decisionsPerSecond() / one.decisionsPerSecond();
    }

    static Run find(List<Run> runs, String mode) {
        return runs.stream().filter(r -> r.mode().equals(mode)).findFirst().orElse(null);
    }

    static String line(Run r) {
        return String.format(Locale.ROOT, "hot sale, %s (redis.coalesce-max %s): %,.0f decisions/s, p99 %.1f ms, "
                        + "%.2f attempts per script call; %s", r.mode(), r.coalesceMax(), r.decisionsPerSecond(),
                r.measured().latency().p99(), r.attemptsPerCall(), r.invariants().summary());
    }

    /** Adds the runs to report.json ({@code hotSale}) and their section to report.md; nothing when none ran. */
    static void addTo(Path out, List<Run> runs) throws IOException {
        if (runs.isEmpty()) {
            return;
        }
        ObjectNode hot = JSON.createObjectNode();
        hot.set("runs", JSON.valueToTree(runs));
        Double ratio = ratio(runs);
        if (ratio != null) {
            hot.put("ratio", Report.round(ratio));
        }
        ReportSections.add(out, "hotSale", hot, markdown(runs));
    }

    /** The report's section. */
    static String markdown(List<Run> runs) {
        StringBuilder s = new StringBuilder("## Hot sale: coalescing against one script call per buyer (issue 17)\n\n");
        s.append("One sale of ").append(String.format(Locale.ROOT, "%,d", STOCK)).append(" units; distinct buyers ")
                .append("click its purchase over the connections of the run straight to the service (the edge's ")
                .append("admission would cap both runs alike), after a 3 s warm-up. Decisions: answers other than 503. The service is restarted between ")
                .append("the runs: `redis.coalesce-max` 1 (one `purchase.lua` call per buyer), then its default ")
                .append("(the buyers of the sale who wait while a call is in flight go in the next call).\n\n");
        s.append("| run | redis.coalesce-max | decisions/s | p50 | p99 | answers | attempts per script call | "
                + "reconcile actions after 503s | invariants |\n");
        s.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            Measured m = r.measured();
            s.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.1f ms | %.1f ms | %s | %s | %d | %s |\n",
                    r.mode(), r.coalesceMax(), r.decisionsPerSecond(), m.latency().p50(), m.latency().p99(), m.byKind(),
                    r.attemptsPerCall() > 0 ? String.format(Locale.ROOT, "%.2f", r.attemptsPerCall()) : "n/a",
                    r.reconciled(), r.invariants().ok() ? "hold" : "VIOLATED: " + r.invariants().violations()));
        }
        Double ratio = ratio(runs);
        if (ratio != null) {
            s.append(String.format(Locale.ROOT, "\nCoalescing / one call per buyer: **%.2f x** decisions per second.\n",
                    ratio));
        }
        return s.toString();
    }
}
