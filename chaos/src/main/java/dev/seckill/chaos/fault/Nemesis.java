package dev.seckill.chaos.fault;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.Stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;

/**
 * Runs a {@link Schedule} on the cluster: injects each fault at its planned time (later if the faults of the step
 * before are not healed yet: never more than two at once), heals it after its span and records a {@link Window} with
 * the real times. {@link #healAll} undoes everything (continue, unpartition, start what is down); a JVM shutdown hook
 * does the first two whatever ends the run.
 */
public final class Nemesis {

    /** How long every node may take to be healthy again after the heal. */
    private static final Duration HEALTHY = Duration.ofMinutes(5);

    private final ClusterStack cluster;
    private final Schedule schedule;
    private final NodeControl nodes;
    private final Firewall firewall;
    private final Cgroups cgroups;
    private final Consumer<String> log;
    /** The windows by their fault's number. */
    private final Map<Integer, Window> windows = new ConcurrentSkipListMap<>();
    private final Thread hook;

    public Nemesis(ClusterStack cluster, Schedule schedule, NodeControl nodes, Firewall firewall, Cgroups cgroups,
                   Consumer<String> log) {
        this.cluster = cluster;
        this.schedule = schedule;
        this.nodes = nodes;
        this.firewall = firewall;
        this.cgroups = cgroups;
        this.log = log;
        this.hook = new Thread(this::releaseQuietly, "chaos-heal");
    }

    /**
     * Before the workload: the hook registered, the firewall chain ready, and every node a partition cuts started
     * inside its cgroup (a node that runs elsewhere, as on a cluster bin/seckill test started, is restarted there).
     */
    public void prepare() {
        Runtime.getRuntime().addShutdownHook(hook);
        if (!schedule.partitionSources().isEmpty()) {
            firewall.clear();
            firewall.ensure();
        }
        for (String node : schedule.partitionSources()) {
            if (!nodes.inCgroup(node)) {
                log.accept("restarting " + node + " inside its cgroup " + cgroups.of(node) + " (partitions match it)");
                nodes.restartInto(node);
            }
        }
    }

    /** Runs the schedule from {@code startMillis} (epoch); injects nothing planned after {@code stopMillis}. */
    public void run(long startMillis, long stopMillis) throws InterruptedException {
        List<FaultEvent> events = new ArrayList<>(schedule.events());
        events.sort(Comparator.comparing(FaultEvent::at));
        List<Thread> running = new ArrayList<>();
        for (FaultEvent e : events) {
            long at = startMillis + e.at().toMillis();
            // The faults of an earlier step (planned not to overlap this one) are healed first.
            for (int i = 0; i < running.size(); i++) {
                if (!Schedule.overlap(events.get(i), e)) {
                    running.get(i).join();
                }
            }
            long wait = at - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            if (System.currentTimeMillis() > stopMillis) {
                log.accept("fault #" + e.number() + " not injected: the workload has ended");
                windows.put(e.number(), new Window(e, -1, -1, "not injected: the workload had ended"));
                running.add(Thread.ofPlatform().daemon().start(() -> { }));
                continue;
            }
            running.add(Thread.ofPlatform().daemon().name("fault-" + e.number()).start(() -> inject(e)));
        }
        for (Thread t : running) {
            t.join();
        }
    }

    /** One fault: inject, hold for its span, heal; its window recorded even when a step failed. */
    private void inject(FaultEvent e) {
        long injected = -1;
        long healed = -1;
        String problem = null;
        try {
            log.accept("inject " + Schedule.describe(e));
            // The window opens as the injection begins: a kill's SIGKILL lands at once, the wait for the process
            // to be gone comes after it (about a second), and answers cut off meanwhile belong to the fault.
            long begins = System.currentTimeMillis();
            apply(e, true);
            injected = begins;
            Thread.sleep(e.span().toMillis());
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException ex) {
            problem = "inject: " + ex.getMessage();
            log.accept("fault #" + e.number() + " failed to inject: " + ex.getMessage());
        }
        try {
            apply(e, false);
            healed = System.currentTimeMillis();
            log.accept("healed #" + e.number() + " (" + Schedule.describe(e.fault()) + ") after "
                    + (injected < 0 ? "?" : (healed - injected) + " ms"));
        } catch (RuntimeException ex) {
            problem = (problem == null ? "" : problem + "; ") + "heal: " + ex.getMessage();
            log.accept("fault #" + e.number() + " failed to heal: " + ex.getMessage() + " (healed at the end)");
        }
        windows.put(e.number(), new Window(e, injected, healed, problem));
    }

    private void apply(FaultEvent e, boolean inject) {
        String tag = "seckill-chaos-fault-" + e.number();
        switch (e.fault()) {
            case Fault.Kill k -> {
                if (inject) {
                    nodes.kill(k.node());
                } else {
                    nodes.up(k.node());
                }
            }
            case Fault.Pause p -> {
                if (inject) {
                    nodes.stop(p.node());
                } else {
                    nodes.resume(p.node());
                }
            }
            case Fault.Partition p -> {
                for (String from : p.from()) {
                    for (String to : p.to()) {
                        cut(from, to, tag, inject);
                        if (p.bothWays()) {
                            cut(to, from, tag, inject);
                        }
                    }
                }
            }
        }
    }

    private void cut(String from, String to, String tag, boolean inject) {
        List<Integer> ports = cluster.listeningPorts(to);
        if (inject) {
            firewall.drop(cgroups.matchPath(from), ports, tag);
        } else {
            firewall.undrop(cgroups.matchPath(from), ports, tag);
        }
    }

    /** The windows recorded so far, in the schedule's order. */
    public List<Window> windows() {
        return List.copyOf(windows.values());
    }

    /**
     * Everything healed: every process continued, every rule removed, every node that is not running started (inside
     * its cgroup), then every node healthy (bin/seckill up --cluster of all, which starts nothing more), retried
     * until a deadline.
     */
    public void healAll() {
        releaseQuietly();
        String[] all = cluster.nodes().toArray(String[]::new);
        boolean healthy = Await.poll(HEALTHY, Duration.ofSeconds(5), () -> {
            for (String node : all) {
                if (!nodes.running(node)) {
                    log.accept("starting " + node + " (down at the end of the faults)");
                    try {
                        nodes.up(node);
                    } catch (IllegalStateException e) {
                        log.accept("failed to start " + node + ": " + e.getMessage().lines().findFirst().orElse(""));
                    }
                }
            }
            Stack.Outcome up = cluster.attemptUp(all);
            if (up.exit() != 0) {
                log.accept("the cluster is not healthy yet: " + up.output().lines().findFirst().orElse(""));
            }
            return up.exit() == 0;
        });
        if (!healthy) {
            throw new IllegalStateException("the cluster was not healthy " + HEALTHY + " after the faults");
        }
    }

    /** Continue every process and remove every rule; never throws (the shutdown hook runs it). */
    private void releaseQuietly() {
        try {
            nodes.resumeAll();
        } catch (RuntimeException e) {
            log.accept("failed to continue the paused processes: " + e.getMessage());
        }
        try {
            firewall.clear();
        } catch (RuntimeException e) {
            log.accept("failed to remove the partition rules: " + e.getMessage());
        }
    }

    /** After a run, however it ended: nothing paused, no rule left; the hook is no longer needed. */
    public void close() {
        releaseQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook runs.
        }
    }
}
