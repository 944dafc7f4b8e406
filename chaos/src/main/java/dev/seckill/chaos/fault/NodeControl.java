package dev.seckill.chaos.fault;

import dev.seckill.testkit.ClusterStack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the nemesis does to a node's processes: SIGKILL (ClusterStack.kill9), {@code bin/seckill up --cluster <node>}
 * run from inside the node's cgroup (so the node it starts is there and partitions still find it), SIGSTOP and
 * SIGCONT of every process of the node (its cgroup's and its recorded pid's with their descendants).
 */
public final class NodeControl {

    private final ClusterStack cluster;
    private final Cgroups cgroups;
    private final Path home;

    public NodeControl(ClusterStack cluster, Cgroups cgroups, Path home) {
        this.cluster = cluster;
        this.cgroups = cgroups;
        this.home = home;
    }

    public void kill(String node) {
        cluster.kill9(node);
    }

    /** Starts the node again (up starts only what is not running) and waits until it is healthy. */
    public void up(String node) {
        seckill(node, "up");
    }

    /** Stops and starts the node inside its cgroup (for a cluster whose nodes were started elsewhere). */
    public void restartInto(String node) {
        seckill(node, "restart");
    }

    /** Whether the node's recorded process runs (not a zombie, not gone). */
    public boolean running(String node) {
        long pid = cluster.pid(node);
        if (pid <= 0) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the node's main process was started inside its cgroup. */
    public boolean inCgroup(String node) {
        long pid = cluster.pid(node);
        return pid > 0 && cgroups.holds(node, pid);
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

    /** SIGCONT to every process of every node cgroup and of every node: nothing stays stopped. */
    public void resumeAll() {
        Set<Long> all = new LinkedHashSet<>();
        cgroups.nodes().forEach(n -> all.addAll(cgroups.processes(n)));
        cluster.nodes().forEach(n -> all.addAll(processes(n)));
        signal("CONT", all);
    }

    private static void signal(String signal, Set<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("kill", "-" + signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("failed to send SIG" + signal + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code bin/seckill <command> <node> --cluster} from inside the node's cgroup; fails on a non-zero exit. */
    private void seckill(String node, String command) {
        List<String> cmd = cgroups.enterThenExec(node,
                List.of(home.resolve("bin/seckill").toString(), command, node, "--cluster"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(home.toFile());
        Map<String, String> env = pb.environment();
        env.putAll(cluster.environment());
        env.put("SECKILL_HOME", home.toString());
        Duration timeout = ClusterStack.NODE_OP;
        try {
            Path out = Files.createTempFile("seckill-chaos-" + node, ".log");
            Process p = pb.redirectOutput(out.toFile()).start();
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            String text = Files.readString(out);
            Files.deleteIfExists(out);
            if (!done) {
                p.destroyForcibly();
                throw new IllegalStateException("bin/seckill " + command + " " + node + " took longer than " + timeout);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("bin/seckill " + command + " " + node + " --cluster failed: " + text.strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("failed to run bin/seckill: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
