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
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SortedSet;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code bin/seckill chaos --cluster}: a workload of overlapping sales through the load balancer for a few minutes
 * while a seeded nemesis kills, pauses and partitions the cluster's nodes one or two at a time; then everything
 * healed and settled, the final state read from MySQL and every Redis master and the history checked. Exit 0 iff the
 * verdict holds (1 when it does not, 2 when no verdict could be reached). {@link #run} is the same run for a test.
 */
@Command(name = "chaos",
        description = "Faults in combination on a running cluster (bin/seckill chaos --cluster starts one).")
public final class Chaos implements Callable<Integer> {

    @Option(names = "--minutes", description = "how long the workload runs (default ${DEFAULT-VALUE})", defaultValue = "20")
    double minutes;

    @Option(names = "--seed", description = "the schedule's seed (default: a random one, printed)")
    long seed = new SecureRandom().nextLong() & Long.MAX_VALUE;

    @Option(names = "--faults", split = ",", paramLabel = "KIND", defaultValue = "kill,pause,partition",
            description = "the kinds the schedule draws from: ${COMPLETION-CANDIDATES} (default: all)")
    SortedSet<FaultKind> faults;

    @Option(names = "--out", description = "the report's directory (default: the run directory's chaos-report)")
    Path out;

    @Option(names = "--plan", description = "print the schedule these options give and exit, touching nothing")
    boolean plan;

    public static void main(String[] args) {
        System.exit(commandLine(new Chaos()).execute(args));
    }

    /** The command line's parser (a test's too): kinds of fault are matched in any case. */
    public static CommandLine commandLine(Chaos chaos) {
        return new CommandLine(chaos).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() throws Exception {
        if (!(minutes > 0)) {
            throw new ParameterException(new CommandLine(this), "--minutes must be above 0, not " + minutes);
        }
        ClusterStack cluster = ClusterStack.get();
        if (plan) {
            printPlan(schedule(cluster));
            return 0;
        }
        ChaosReport report = run(cluster);
        if (report.holds() == null) {
            return 2;
        }
        return report.passed() ? 0 : 1;
    }

    /** The schedule a run with these options would follow on this cluster (same seed, same schedule). */
    public Schedule schedule(ClusterStack cluster) {
        return Schedule.generate(seed, cluster.nodes(), length(), faults, Timeouts.read(cluster::setting));
    }

    private Duration length() {
        return Duration.ofMillis((long) (minutes * 60_000));
    }

    /** The kinds as --faults names them, in their fixed order. */
    private String faultList() {
        return faults.stream().map(FaultKind::toString).collect(Collectors.joining(","));
    }

    /** The command that replays this run's schedule. */
    private String replay() {
        String length = minutes == Math.rint(minutes) ? Long.toString((long) minutes) : Double.toString(minutes);
        return "bin/seckill chaos --cluster --minutes " + length + " --seed " + seed + " --faults " + faultList();
    }

    /** The options and the schedule they give, a fault a line. */
    private void printPlan(Schedule schedule) {
        System.out.println("chaos: seed " + seed + ", workload " + minutes + " min, faults " + faultList()
                + "; schedule:");
        schedule.describe().forEach(l -> System.out.println("  " + l));
    }

    /** The run: its report, also written to --out (report.json, summary.md) beside history.jsonl. */
    public ChaosReport run(ClusterStack cluster) throws Exception {
        Consumer<String> log = m -> System.out.println("chaos: " + m);
        Path dir = out != null ? out : cluster.runDir().resolve("chaos-report");
        Files.createDirectories(dir);
        Schedule schedule = schedule(cluster);
        Timeouts timeouts = Timeouts.read(cluster::setting);
        printPlan(schedule);
        int lb = cluster.port("lb");
        Cgroups cgroups = Cgroups.forCluster(lb);
        Firewall firewall = Firewall.forCluster(lb);
        NodeControl nodes = new NodeControl(cluster, cgroups);
        Nemesis nemesis = new Nemesis(cluster, schedule, nodes, firewall, cgroups, log);
        String runId = "chaos" + Long.toString(seed, 36) + "-" + Long.toString(System.currentTimeMillis() % 100_000_000L, 36);
        Path historyFile = dir.resolve("history.jsonl");
        try {
            nemesis.prepare();
            try (History history = new History(historyFile)) {
                Workload workload = new Workload(cluster, history, seed, runId, timeouts.client(), log);
                workload.open(length());
                long start = System.currentTimeMillis();
                long stop = start + length().toMillis();
                Thread faults = Thread.ofPlatform().name("nemesis").start(() -> {
                    try {
                        nemesis.run(start, stop);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                workload.run(stop, length());
                long workloadEnd = System.currentTimeMillis();
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
                ChaosReport report = new ChaosReport(seed, minutes, faultList(), replay(), start, workloadEnd,
                        System.currentTimeMillis(), ops.size(), workload.sales(), workload.saleIds(), nemesis.windows(),
                        timely, recovery, Recovery.perKind(recovery), settled, holds, checker, verdict);
                report.write(dir);
                System.out.println();
                report.summary().forEach(System.out::println);
                log.accept("report: " + dir.resolve("report.json") + " and summary.md; history: " + historyFile
                        + " (ended " + Instant.now() + ")");
                return report;
            }
        } finally {
            nemesis.close();
        }
    }
}
