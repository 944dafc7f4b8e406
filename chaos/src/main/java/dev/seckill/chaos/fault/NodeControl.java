package dev.seckill.chaos.fault;

import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.Stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the nemesis does to a node's processes: SIGKILL (ClusterStack.crash), {@code bin/seckill up --cluster <node>}
 * run from inside the node's cgroup (so the node it starts is there and partitions still find it), SIGSTOP and
 * SIGCONT of every process of the node (its cgroup's and its recorded pid's with their descendants).
 */
public final class NodeControl {

    private final ClusterStack cluster;
    private final Cgroups cgroups;

    public NodeControl(ClusterStack cluster, Cgroups cgroups) {
        this.cluster = cluster;
        this.cgroups = cgroups;
    }

    public void kill(String node) {
        cluster.crash(node).ifPresent(why -> {
            throw new IllegalStateException(why);
        });
    }

    /** Starts the node again (up starts only what is not running) and waits until it is healthy. */
    public void up(String node) {
        seckill(node, "up");
    }

    /** Stops and starts the node inside its cgroup (for a cluster whose nodes were started elsewhere). */
    public void restartInto(String node) {
        seckill(node, "restart");
    }

    /** Whether the node's recorded process runs. */
    public boolean running(String node) {
        long pid = cluster.pid(node);
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Whether the node's main process was started inside its cgroup. */
    public boolean inCgroup(String node) {
        long pid = cluster.pid(node);
        return pid > 0 && cgroups.processes(node).contains(pid);
    }

    /** Every process of the node now. */
    public Set<Long> processes(String node) {
        Set<Long> out = new LinkedHashSet<>(cgroups.processes(node));
        long pid = cluster.pid(node);
        if (pid > 0) {
            ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(ph -> {
                out.add(ph.pid());
                ph.descendants().forEach(d -> out.add(d.pid()));
            });
        }
        return out;
    }

    public void stop(String node) {
        signal("STOP", processes(node));
    }

    public void resume(String node) {
        signal("CONT", processes(node));
    }

    /** SIGCONT to every process of every node (its cgroup's and its pid's): nothing stays stopped. */
    public void resumeAll() {
        Set<Long> all = new LinkedHashSet<>();
        cluster.nodes().forEach(n -> all.addAll(processes(n)));
        signal("CONT", all);
    }

    private static void signal(String signal, Set<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        Stack.Outcome o = Stack.command(Duration.ofSeconds(10), cmd);
        if (o.exit() < 0) {
            throw new IllegalStateException("failed to send SIG" + signal + ": " + o.output());
        }
    }

    /** {@code bin/seckill <command> <node> --cluster} from inside the node's cgroup; fails on a non-zero exit. */
    private void seckill(String node, String command) {
        Stack.Outcome o = cluster.attempt(ClusterStack.NODE_OP, cgroups.enterThenExec(node, List.of()), command, node);
        if (o.exit() != 0) {
            throw new IllegalStateException("bin/seckill " + command + " " + node + " --cluster failed: "
                    + o.output().strip());
        }
    }
}
