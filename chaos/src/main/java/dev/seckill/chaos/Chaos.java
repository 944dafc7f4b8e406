package dev.seckill.chaos;

import dev.seckill.check.Checker;
import dev.seckill.check.FinalState;
import dev.seckill.check.Verdict;
import dev.seckill.chaos.fault.Cgroups;
import dev.seckill.chaos.fault.FaultKind;
import dev.seckill.chaos.fault.Firewall;
import dev.seckill.chaos.fault.Nemesis;
import dev.seckill.chaos.fault.NodeControl;
import dev.seckill.chaos.fault.Schedule;
import dev.seckill.chaos.fault.Timeouts;
import dev.seckill.chaos.fault.Window;
import dev.seckill.chaos.history.History;
import dev.seckill.check.Op;
import dev.seckill.chaos.load.Workload;
import dev.seckill.chaos.report.ChaosReport;
import dev.seckill.chaos.report.Recovery;
import dev.seckill.chaos.report.Timeliness;
import dev.seckill.chaos.settle.EndOfRun;
import dev.seckill.testkit.ClusterStack;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code bin/seckill chaos --cluster}: a workload of overlapping sales through the load balancer for a few minutes
 * while a seeded nemesis kills, pauses and partitions the cluster's nodes one or two at a time; then everything
 * healed and settled, the final state read from MySQL and every Redis master and the history checked. Exit 0 iff the
 * verdict holds (1 when it does not, 2 when no verdict could be reached). {@link #run} is the same run for a test.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = "Faults in combination on a running cluster (bin/seckill chaos --cluster starts one).")
public final class Chaos implements Callable<Integer> {

    @Option(names = "--minutes", description = "how long the workload runs (default ${DEFAULT-VALUE})", defaultValue = "20")
    double minutes;

    @Option(names = "--seed", description = "the schedule's seed (default: a random one, printed)")
    Long seed;

    @Option(names = "--faults", description = "kill,pause,partition or all (default ${DEFAULT-VALUE})", defaultValue = "all")
    String faults;

    @Option(names = "--out", description = "the report's directory (default: the run directory's chaos-report)")
    Path out;

    @Option(names = "--plan", description = "print the schedule these options give and exit, touching nothing")
    boolean plan;

    /** What a run leaves: its schedule, the faults' real windows, the report and the directory it is in. */
    public record Result(Schedule schedule, List<Window> windows, ChaosReport report, Path out) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Chaos()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cli = new CommandLine(this);
        if (!(minutes > 0)) {
            throw new CommandLine.ParameterException(cli, "--minutes must be above 0, not " + minutes);
        }
        Set<FaultKind> kinds;
        try {
            kinds = FaultKind.parse(faults);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cli, "--faults: " + e.getMessage());
        }
        ClusterStack cluster = ClusterStack.get();
        long s = seed != null ? seed : new SecureRandom().nextLong() & Long.MAX_VALUE;
        Path dir = out != null ? out : cluster.runDir().resolve("chaos-report");
        ChaosOptions o = new ChaosOptions(Duration.ofMillis((long) (minutes * 60_000)), s, kinds, dir);
        if (plan) {
            printPlan(o, schedule(o, cluster));
            return 0;
        }
        Result r = run(o, cluster);
        if (r.report().holds() == null) {
            return 2;
        }
        return r.report().passed() ? 0 : 1;
    }

    /** The schedule a run with these options would follow on this cluster (same seed, same schedule). */
    public static Schedule schedule(ChaosOptions o, ClusterStack cluster) {
        return Schedule.generate(o.seed(), cluster.nodes(), o.length(), o.faults(), Timeouts.read(cluster::setting));
    }

    /** The options and the schedule they give, a fault a line. */
    private static void printPlan(ChaosOptions o, Schedule schedule) {
        System.out.println("chaos: seed " + o.seed() + ", workload " + o.minutes() + " min, faults " + o.faultList()
                + "; schedule:");
        schedule.describe().forEach(l -> System.out.println("  " + l));
    }

    public static Result run(ChaosOptions o, ClusterStack cluster) throws Exception {
        Consumer<String> log = m -> System.out.println("chaos: " + m);
        Files.createDirectories(o.out());
        Schedule schedule = schedule(o, cluster);
        Timeouts timeouts = Timeouts.read(cluster::setting);
        printPlan(o, schedule);
        int lb = cluster.port("lb");
        Cgroups cgroups = Cgroups.forCluster(lb);
        Firewall firewall = Firewall.forCluster(lb);
        NodeControl nodes = new NodeControl(cluster, cgroups);
        Nemesis nemesis = new Nemesis(cluster, schedule, nodes, firewall, cgroups, log);
        String runId = "chaos" + Long.toString(o.seed(), 36) + "-" + Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        Path historyFile = o.out().resolve("history.jsonl");
        try {
            nemesis.prepare();
            long start;
            long workloadEnd;
            Workload workload;
            try (History history = new History(historyFile)) {
                workload = new Workload(cluster, history, o.seed(), runId, timeouts.client(), log);
                workload.open(o.length());
                start = System.currentTimeMillis();
                long stop = start + o.length().toMillis();
                Thread faults = Thread.ofPlatform().name("nemesis").start(() -> {
                    try {
                        nemesis.run(start, stop);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                workload.run(stop, o.length());
                workloadEnd = System.currentTimeMillis();
                log.accept("workload ended; waiting for the faults in force to heal");
                faults.join();
                log.accept("healing everything");
                nemesis.healAll();
                EndOfRun.Outcome settled = new EndOfRun(workload.admin(), log).settle(workload.sales(),
                        workload.saleIds());
                history.close();
                List<Op> ops = History.read(historyFile);
                Boolean holds = null;
                Verdict verdict = null;
                String checker = null;
                try {
                    verdict = Checker.check(ops, FinalState.read(cluster, workload.saleIds()));
                    holds = verdict.holds();
                } catch (RuntimeException e) {
                    checker = "the checker failed: " + e;
                }
                Timeliness.Table timely = Timeliness.of(ops, nemesis.windows(), timeouts.deadline());
                List<Recovery.OfFault> recovery = Recovery.perFault(ops, nemesis.windows());
                ChaosReport report = new ChaosReport(o.seed(), o.minutes(), o.faultList(), o.replay(), start,
                        workloadEnd, System.currentTimeMillis(), ops.size(), workload.sales(),
                        workload.saleIds(), ChaosReport.faults(schedule, nemesis.windows(), nemesis.problems()),
                        timely, recovery, Recovery.perKind(recovery), settled, holds, checker, verdict);
                report.write(o.out());
                System.out.println();
                report.summary().forEach(System.out::println);
                log.accept("report: " + o.out().resolve("report.json") + " and summary.md; history: " + historyFile
                        + " (ended " + Instant.now() + ")");
                return new Result(schedule, nemesis.windows(), report, o.out());
            }
        } finally {
            nemesis.close();
        }
    }
}
