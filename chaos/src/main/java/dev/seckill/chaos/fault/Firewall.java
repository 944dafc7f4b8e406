package dev.seckill.chaos.fault;

import dev.seckill.testkit.Stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The partitions' packet filter: DROP rules in one iptables chain of the cluster's own, jumped to from OUTPUT, so
 * removing every rule is one flush. A one-way cut of A from B drops the TCP packets A's processes send to B's
 * listening ports (matched by A's cgroup, {@link Cgroups}); both ways adds B's packets to A's ports.
 */
public final class Firewall {

    private final String chain;

    public Firewall(String chain) {
        this.chain = chain;
    }

    /** SECKILL_CHAOS_CHAIN, else SECKILL_CHAOS_{lbPort}. */
    public static Firewall forCluster(int lbPort) {
        String env = System.getenv("SECKILL_CHAOS_CHAIN");
        return new Firewall(env != null && !env.isEmpty() ? env : "SECKILL_CHAOS_" + lbPort);
    }

    /** The chain exists and OUTPUT jumps to it. */
    public synchronized void ensure() {
        if (!run(List.of("-n", "-L", chain))) {
            must(List.of("-N", chain));
        }
        if (!run(List.of("-C", "OUTPUT", "-j", chain))) {
            must(List.of("-I", "OUTPUT", "1", "-j", chain));
        }
    }

    /** Drops what processes of cgroup {@code from} send to {@code ports}; {@code tag} marks the rules as one fault's. */
    public synchronized void drop(String fromCgroup, List<Integer> ports, String tag) {
        for (int port : ports) {
            must(rule("-A", fromCgroup, port, tag));
        }
    }

    /** Removes what {@link #drop} added. */
    public synchronized void undrop(String fromCgroup, List<Integer> ports, String tag) {
        for (int port : ports) {
            while (run(rule("-D", fromCgroup, port, tag))) {
                // A rule added twice is removed twice.
            }
        }
    }

    /** Every rule removed, the jump and the chain too; never fails (a missing chain is already clear). */
    public synchronized void clear() {
        run(List.of("-F", chain));
        while (run(List.of("-D", "OUTPUT", "-j", chain))) {
            // Every jump.
        }
        run(List.of("-X", chain));
    }

    /** The chain's rules, as iptables -S prints them (empty when it does not exist). */
    public synchronized List<String> rules() {
        return iptables(List.of("-S", chain)).output().lines().filter(l -> l.startsWith("-A ")).toList();
    }

    private List<String> rule(String op, String fromCgroup, int port, String tag) {
        return List.of(op, chain, "-p", "tcp", "-m", "cgroup", "--path", fromCgroup, "--dport", Integer.toString(port),
                "-m", "comment", "--comment", tag, "-j", "DROP");
    }

    private void must(List<String> args) {
        Stack.Outcome o = iptables(args);
        if (o.exit() != 0) {
            String hint = o.exit() < 0 ? " (is Debian's iptables installed? bin/seckill install)" : "";
            throw new IllegalStateException("iptables " + String.join(" ", args) + " failed: " + o.output().strip()
                    + hint);
        }
    }

    private boolean run(List<String> args) {
        return iptables(args).exit() == 0;
    }

    /** iptables with {@code args}; -w waits for another caller's lock. */
    private static Stack.Outcome iptables(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("iptables", "-w", "5"));
        cmd.addAll(args);
        return Stack.command(Duration.ofSeconds(20), cmd);
    }
}
