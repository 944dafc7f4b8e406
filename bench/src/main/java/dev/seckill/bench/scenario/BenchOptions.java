package dev.seckill.bench.scenario;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** What one bench run does, as its command line says (read by picocli; bench/README.md explains each option). */
public record BenchOptions(int stock, int users, int attempts, int connections, Duration duration, Path out,
                           boolean ceilings, Duration ceilingTime, int rounds, long firstUser,
                           List<Integer> floodLevels, Duration floodTime, double payRatio, Duration payWindow,
                           int expiryOrders, boolean protection, boolean profile, boolean largeSale,
                           boolean signIn, boolean waitingRoom) {

    /** The command line, as picocli fills it in; {@link #validate} checks the values. */
    @CommandLine.Command(name = "bin/seckill bench", usageHelpWidth = 120, showDefaultValues = true,
            footer = "What each option does: bench/README.md, Options.")
    static final class Args {
        @Option(names = "--stock", defaultValue = "1000") int stock;
        @Option(names = "--users", defaultValue = "100000") int users;
        @Option(names = "--attempts", defaultValue = "3") int attempts;
        @Option(names = "--connections", defaultValue = "256") int connections;
        @Option(names = "--duration", defaultValue = "120") int duration;
        @Option(names = "--out", defaultValue = "report") Path out;
        @Option(names = "--no-ceilings") boolean noCeilings;
        @Option(names = "--ceiling-seconds", defaultValue = "5") int ceilingSeconds;
        @Option(names = "--rounds", defaultValue = "3") int rounds;
        @Option(names = "--first-user", defaultValue = "1") int firstUser;
        @Option(names = "--flood-levels", defaultValue = "1000,5000,20000", converter = Levels.class)
        public List<Integer> floodLevels;
        @Option(names = "--flood-seconds", defaultValue = "10") int floodSeconds;
        @Option(names = "--pay-ratio") Double payRatio;
        @Option(names = "--pay-window", defaultValue = "900") int payWindow;
        @Option(names = "--expiry-orders") Integer expiryOrders;
        @Option(names = "--protection") boolean protection;
        @Option(names = "--profile") boolean profile;
        @Option(names = "--no-large-sale") boolean noLargeSale;
        @Option(names = "--no-sign-in") boolean noSignIn;
        @Option(names = "--waiting-room") boolean waitingRoom;
        // Read by bin/lib/bench.sh only (through shell()): the stack it runs against and the hot sale it runs first.
        @Option(names = "--reuse") boolean reuse;
        @Option(names = "--keep") boolean keep;
        @Option(names = "--no-hot-sale") boolean noHotSale;
        @Option(names = "--hot-sale-seconds", defaultValue = "10") int hotSaleSeconds;
        @Option(names = "--jmh-forks", defaultValue = "1") int jmhForks;
        @Option(names = "--jmh-warmups", defaultValue = "2") int jmhWarmups;
        @Option(names = "--jmh-iterations", defaultValue = "5") int jmhIterations;
        @Option(names = {"-h", "--help"}, usageHelp = true) boolean help;
    }

    public static BenchOptions defaults() {
        return parse();
    }

    /**
     * The options of a command line, the last of a repeated one counting (bin/lib/bench.sh adds its own --out); a bad
     * or unknown one is an IllegalArgumentException with the usage.
     */
    public static BenchOptions parse(String... argv) {
        Args a = args(argv);
        return new BenchOptions(a.stock, a.users, a.attempts, a.connections, Duration.ofSeconds(a.duration), a.out,
                !a.noCeilings, Duration.ofSeconds(a.ceilingSeconds), a.rounds, a.firstUser, a.floodLevels,
                Duration.ofSeconds(a.floodSeconds), a.payRatio == null ? -1 : a.payRatio,
                Duration.ofSeconds(a.payWindow), a.expiryOrders == null ? 0 : a.expiryOrders, a.protection, a.profile,
                !a.noLargeSale, !a.noLargeSale && !a.noSignIn, a.waitingRoom);
    }

    private static Args args(String... argv) {
        Args a = new Args();
        CommandLine cli = new CommandLine(a).setOverwrittenOptionsAllowed(true);
        try {
            cli.parseArgs(argv);
            validate(cli);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage() + "\n" + cli.getUsageMessage(), e);
        }
        return a;
    }

    /**
     * What bin/lib/bench.sh needs of a command line, as shell assignments it evaluates (the options are parsed here
     * only): {@code help}, {@code reuse}, {@code keep}, {@code hot}, {@code hot_seconds}, {@code connections},
     * {@code out} (empty when not given), {@code sign_in} and {@code jmh} (JMH's arguments for the micro-benchmarks
     * the run's sections quote, see {@link #jmh}); with {@code help} the usage as {@code usage}.
     */
    static String shell(String... argv) {
        Args a = args(argv);
        boolean outGiven = Arrays.stream(argv).anyMatch(x -> x.equals("--out") || x.startsWith("--out="));
        return String.join("\n", "help=" + a.help, "reuse=" + a.reuse, "keep=" + a.keep, "hot=" + !a.noHotSale,
                "hot_seconds=" + a.hotSaleSeconds, "connections=" + a.connections,
                "out=" + quoted(outGiven ? a.out.toString() : ""), "sign_in=" + (!a.noLargeSale && !a.noSignIn),
                "jmh=" + quoted(jmh(a)),
                "usage=" + quoted(a.help ? new CommandLine(new Args()).getUsageMessage() : "")) + "\n";
    }

    /**
     * JMH's runner arguments: forks, warm-up and measured iterations, and the pattern of the microbench module's
     * benchmarks whose figures the run's sections quote (the ceilings: the batch writer; the sign-in: token
     * verification; the protected sales: the gate); empty when none does.
     */
    static String jmh(Args a) {
        List<String> benchmarks = new ArrayList<>();
        if (!a.noCeilings) {
            benchmarks.add("WriterBatch");
        }
        if (!a.noLargeSale && !a.noSignIn) {
            benchmarks.add("TokenVerification");
        }
        if (a.protection) {
            benchmarks.add("ProtectionCheck");
        }
        return benchmarks.isEmpty() ? "" : String.join(" ", "-f", "" + a.jmhForks, "-wi", "" + a.jmhWarmups, "-i",
                "" + a.jmhIterations, String.join("|", benchmarks));
    }

    /** A value in single quotes for the shell: each quote inside closed, escaped and reopened. */
    static String quoted(String v) {
        return "'" + v.replace("'", "'\\''") + "'";
    }

    /** {@link #shell}'s lines on stdout, or the error and the usage on stderr and exit 2. */
    public static void main(String[] argv) {
        try {
            System.out.print(shell(argv));
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(2);
        }
    }

    /** Every whole number (each flood level too) must be above 0, the pay ratio from 0 to 1. */
    private static void validate(CommandLine cli) {
        for (OptionSpec o : cli.getCommandSpec().options()) {
            Object v = o.getValue();
            List<?> values = v instanceof List<?> l ? l : Collections.singletonList(v);
            if (values.stream().anyMatch(n -> n instanceof Integer i && i <= 0)) {
                throw new CommandLine.ParameterException(cli, o.longestName() + " must be above 0, not " + v);
            }
            if (v instanceof Double r && (r < 0 || r > 1)) {
                throw new CommandLine.ParameterException(cli, o.longestName() + " must be from 0 to 1, not " + v);
            }
        }
    }

    /** True when winners pay (or let the window lapse) and returned units are offered again. */
    public boolean payments() {
        return payRatio >= 0;
    }

    /** The same run with other sizes, as tests size theirs: no flood and no large sale. */
    public BenchOptions with(int stock, int users, int attempts, int connections, Duration duration, Path out,
                             boolean ceilings) {
        return new BenchOptions(stock, users, attempts, connections, duration, out, ceilings, ceilingTime, rounds,
                firstUser, List.of(), floodTime, payRatio, payWindow, expiryOrders, protection, profile, false, false,
                waitingRoom);
    }

    /** The same run with a sold-out flood of these levels, each this long: what tests call. */
    public BenchOptions flooding(List<Integer> levels, Duration each) {
        return new BenchOptions(stock, users, attempts, connections, duration, out, ceilings, ceilingTime, rounds,
                firstUser, List.copyOf(levels), each, payRatio, payWindow, expiryOrders, protection, profile,
                largeSale, signIn, waitingRoom);
    }

    /** The same run with payment behaviour: what tests call. */
    public BenchOptions paying(double ratio, Duration window, int expiring) {
        return new BenchOptions(stock, users, attempts, connections, duration, out, ceilings, ceilingTime, rounds,
                firstUser, floodLevels, floodTime, ratio, window, expiring, protection, profile, largeSale, signIn,
                waitingRoom);
    }

    /** Connections per flood level ("1000,5000,20000"), or "none". */
    static final class Levels implements CommandLine.ITypeConverter<List<Integer>> {
        @Override
        public List<Integer> convert(String v) {
            return v.equals("none") ? List.of()
                    : Arrays.stream(v.split(",")).map(n -> Integer.valueOf(n.strip())).toList();
        }
    }
}
