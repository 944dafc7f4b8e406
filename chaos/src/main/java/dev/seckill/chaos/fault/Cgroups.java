package dev.seckill.chaos.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One cgroup v2 per node under a parent of the cluster's own ({@code <cgroup2 mount>/seckill-chaos/<lb port>}, or
 * SECKILL_CHAOS_CGROUP), so iptables can tell a node's packets from another's although every node is on 127.0.0.1
 * ({@code -m cgroup --path}). A socket belongs to the cgroup its process was in when it made the socket, so a node is
 * put there before it starts (bin/lib/chaos.sh's spawn, {@link #enterThenExec} for a restart), not moved later.
 * Every process of a node is then its cgroup's {@code cgroup.procs}. No controller is enabled: the cgroups only name.
 */
public final class Cgroups {

    private final Path mount;
    private final Path parent;

    Cgroups(Path mount, Path parent) {
        this.mount = mount;
        this.parent = parent;
    }

    /** The cluster's parent cgroup: SECKILL_CHAOS_CGROUP, else seckill-chaos/{lbPort} under the cgroup2 mount. */
    public static Cgroups forCluster(int lbPort) {
        Path mount = cgroup2Mount().orElseThrow(() -> new IllegalStateException(
                "no cgroup2 file system is mounted (/proc/mounts): partitions need one"));
        String env = System.getenv("SECKILL_CHAOS_CGROUP");
        Path parent = env != null && !env.isEmpty() ? Path.of(env) : mount.resolve("seckill-chaos").resolve(
                Integer.toString(lbPort));
        return new Cgroups(mount, parent);
    }

    /** Where cgroup2 is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host). */
    static Optional<Path> cgroup2Mount() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("cgroup2")) {
                    return Optional.of(Path.of(f[1]));
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The node's cgroup directory, made if missing. */
    public Path of(String node) {
        Path p = parent.resolve(node);
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to make the cgroup " + p + " (partitions need root)", e);
        }
        return p;
    }

    /** The path iptables's cgroup match takes: the node's cgroup relative to the cgroup2 root. */
    public String matchPath(String node) {
        return mount.relativize(of(node)).toString();
    }

    /** Every process in the node's cgroup now. */
    public List<Long> processes(String node) {
        Path procs = parent.resolve(node).resolve("cgroup.procs");
        List<Long> out = new ArrayList<>();
        if (!Files.exists(procs)) {
            return out;
        }
        try {
            for (String l : Files.readAllLines(procs)) {
                if (!l.isBlank()) {
                    out.add(Long.parseLong(l.strip()));
                }
            }
        } catch (IOException e) {
            // The cgroup went away: no process.
        }
        return out;
    }

    /** {@code command} run by a shell that first moves itself into the node's cgroup, so all it starts is there. */
    public List<String> enterThenExec(String node, List<String> command) {
        List<String> out = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                of(node).resolve("cgroup.procs").toString()));
        out.addAll(command);
        return out;
    }
}
