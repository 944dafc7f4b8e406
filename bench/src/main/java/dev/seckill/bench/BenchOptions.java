package dev.seckill.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one bench run does. The flash sale: {@code stock} units, {@code users} distinct signed-in users, each clicking
 * up to {@code attempts} times, over {@code connections} keep-alive connections, bounded by {@code duration}. The
 * ceilings (unless {@code ceilings} is false): {@code rounds} interleaved rounds of {@code ceilingTime} each. The
 * sold-out flood after the sale: {@code floodTime} at each of {@code floodLevels} connections (none: no flood).
 * Payment behaviour (issue 14; off while {@code payRatio} < 0): the sale's winners have {@code payWindow} to pay, a
 * share {@code payRatio} of them pays and the rest lets the window lapse, and {@code expiryOrders} > 0 measures a
 * running sale while that many unpaid orders of another sale expire at once. {@code protection} (issue 15) adds what
 * protected sales cost and how they spread the first seconds of a sale ({@link ProtectionBench}). {@code profile}
 * (issue 17) profiles the service's JVM with async-profiler from the ceilings to the end of the flood and adds where
 * its time went ({@link ServiceProfiler}).
 */
public record BenchOptions(int stock, int users, int attempts, int connections, Duration duration, Path out,
                           boolean ceilings, Duration ceilingTime, int rounds, long firstUser, List<Integer> floodLevels,
                           Duration floodTime, double payRatio, Duration payWindow, int expiryOrders,
                           boolean protection, boolean profile, boolean largeSale) {

    public static final String USAGE = """
            options: --stock N (1000) --users N (100000) --attempts N (3) --connections N (256) --duration S (120)
                     --out DIR (report) --ceiling-seconds S (5) --rounds N (3) --no-ceilings --first-user ID (1)
                     --flood-levels N,N... (1000,5000,20000; none) --flood-seconds S (10)
                     --pay-ratio R (off; 0..1) --pay-window S (900) --expiry-orders N (off) --protection
                     --profile (async-profiler in the service) --no-large-sale""";

    private static final Set<String> NAMES = Set.of("--stock", "--users", "--attempts", "--connections", "--duration",
            "--out", "--ceiling-seconds", "--rounds", "--first-user", "--flood-levels", "--flood-seconds",
            "--pay-ratio", "--pay-window", "--expiry-orders");

    public static BenchOptions defaults() {
        return new BenchOptions(1000, 100_000, 3, 256, Duration.ofSeconds(120), Path.of("report"), true,
                Duration.ofSeconds(5), 3, 1, List.of(1000, 5000, 20_000), Duration.ofSeconds(10),
                -1, Duration.ofSeconds(900), 0, false, false, true);
    }

    /** True when winners pay (or let the window lapse) and returned units are offered again. */
    public boolean payments() {
        return payRatio >= 0;
    }

    public static BenchOptions parse(String... args) {
        Map<String, String> v = new HashMap<>();
        boolean ceilings = true;
        boolean protection = false;
        boolean profile = false;
        boolean largeSale = true;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--no-ceilings")) {
                ceilings = false;
            } else if (name.equals("--protection")) {
                protection = true;
            } else if (name.equals("--profile")) {
                profile = true;
            } else if (name.equals("--no-large-sale")) {
                largeSale = false;
            } else if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
            } else if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name + " needs a value");
            } else {
                v.put(name, args[++i]);
            }
        }
        BenchOptions d = defaults();
        return new BenchOptions(positive(v, "--stock", d.stock), positive(v, "--users", d.users),
                positive(v, "--attempts", d.attempts), positive(v, "--connections", d.connections),
                Duration.ofSeconds(positive(v, "--duration", (int) d.duration.toSeconds())),
                v.containsKey("--out") ? Path.of(v.get("--out")) : d.out, ceilings,
                Duration.ofSeconds(positive(v, "--ceiling-seconds", (int) d.ceilingTime.toSeconds())),
                positive(v, "--rounds", d.rounds), positive(v, "--first-user", (int) d.firstUser),
                v.containsKey("--flood-levels") ? levels(v.get("--flood-levels")) : d.floodLevels,
                Duration.ofSeconds(positive(v, "--flood-seconds", (int) d.floodTime.toSeconds())),
                ratio(v, "--pay-ratio", d.payRatio),
                Duration.ofSeconds(positive(v, "--pay-window", (int) d.payWindow.toSeconds())),
                positive(v, "--expiry-orders", d.expiryOrders), protection, profile, largeSale);
    }

    /**
     * The same run with other sizes: what tests call. Tests size their own load, so there is no flood and no large
     * sale.
     */
    public BenchOptions with(int stock, int users, int attempts, int connections, Duration duration, Path out,
                             boolean ceilings) {
        return new BenchOptions(stock, users, attempts, connections, duration, out, ceilings, ceilingTime, rounds,
                firstUser, List.of(), floodTime, payRatio, payWindow, expiryOrders, protection, profile, false);
    }

    /** The same run with payment behaviour: what tests call. */
    public BenchOptions paying(double ratio, Duration window, int expiring) {
        return new BenchOptions(stock, users, attempts, connections, duration, out, ceilings, ceilingTime, rounds,
                firstUser, floodLevels, floodTime, ratio, window, expiring, protection, profile, largeSale);
    }

    private static double ratio(Map<String, String> values, String name, double def) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        try {
            double r = Double.parseDouble(v);
            if (r >= 0 && r <= 1) {
                return r;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(name + " must be a number from 0 to 1, not '" + v + "'");
    }

    /** "1000,5000,20000" (connections per level) or "none". */
    private static List<Integer> levels(String v) {
        if (v.equals("none")) {
            return List.of();
        }
        List<Integer> levels = new ArrayList<>();
        for (String n : v.split(",")) {
            levels.add(positive(Map.of("--flood-levels", n.trim()), "--flood-levels", 0));
        }
        return List.copyOf(levels);
    }

    private static int positive(Map<String, String> values, String name, int def) {
        String v = values.get(name);
        if (v == null) {
            return def;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(name + " must be a whole number > 0, not '" + v + "'");
    }
}
