package dev.seckill.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The cluster's Redis nodes asked directly with {@code redis-cli} (the password in REDISCLI_AUTH, as the script does):
 * which node masters a key's slot now, which nodes are masters, how many keys a node holds in a slot. Each answer is
 * one node's view at the moment asked; during a failover the nodes may disagree for a moment.
 */
public final class RedisCluster {

    /** One line of CLUSTER NODES: the node's name in the stack, its flags and the slot ranges it serves. */
    public record Node(String name, String id, List<String> flags, String masterId, List<int[]> slots) {

        /** A master the cluster does not consider failed. */
        public boolean servingMaster() {
            return flags.contains("master") && !flags.contains("fail") && !flags.contains("fail?");
        }

        public boolean replica() {
            return flags.contains("slave");
        }

        boolean serves(int slot) {
            return slots.stream().anyMatch(r -> slot >= r[0] && slot <= r[1]);
        }
    }

    private final Map<Integer, String> nameByPort;
    private final UnaryOperator<String> hostOf;
    private final String password;

    /** The native cluster's nodes, all on loopback. */
    RedisCluster(Map<Integer, String> nameByPort, String password) {
        this(nameByPort, node -> "127.0.0.1", password);
    }

    /**
     * Nodes each on a host of its own ({@code hostOf} a node's name, null for a node not running now), every node on
     * a port of its own.
     */
    RedisCluster(Map<Integer, String> nameByPort, UnaryOperator<String> hostOf, String password) {
        this.nameByPort = nameByPort;
        this.hostOf = hostOf;
        this.password = password;
    }

    /** Runs one command on one node and returns its answer; fails on an error reply or a node that does not answer. */
    public String command(String node, String... command) {
        int port = nameByPort.entrySet().stream().filter(e -> e.getValue().equals(node)).map(Map.Entry::getKey)
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no Redis node " + node));
        String host = hostOf.apply(node);
        if (host == null) {
            throw new IllegalStateException(node + " is not running");
        }
        List<String> cmd = new ArrayList<>(List.of("redis-cli", "-h", host, "-p", Integer.toString(port)));
        cmd.addAll(List.of(command));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("REDISCLI_AUTH", password);
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(node + " did not answer " + String.join(" ", command));
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            // redis-cli exits 0 on an error reply and on a refused connection: the text tells.
            if (p.exitValue() != 0 || text.startsWith("ERR") || text.startsWith("Could not connect")
                    || text.startsWith("NOAUTH") || text.startsWith("MOVED") || text.startsWith("CLUSTERDOWN")) {
                throw new IllegalStateException(node + " answered " + String.join(" ", command) + " with: " + text);
            }
            return text;
        } catch (IOException e) {
            throw new IllegalStateException("failed to run redis-cli on " + node + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The hash slot of a key ({@code {sk:7}:stock} and every key of sale 7 share one). */
    public int keySlot(String key) {
        return Integer.parseInt(command(firstAnswering(), "CLUSTER", "KEYSLOT", key));
    }

    /** CLUSTER NODES as {@code from} sees it. */
    public List<Node> view(String from) {
        List<Node> out = new ArrayList<>();
        for (String line : command(from, "CLUSTER", "NODES").split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 8) {
                continue;
            }
            int port = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1, f[1].indexOf('@')));
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < f.length; i++) {
                // Ranges "0-5460" or single slots "5461"; "[slot->-id]" marks a migration, not an owned slot.
                if (f[i].startsWith("[")) {
                    continue;
                }
                String[] r = f[i].split("-");
                slots.add(new int[]{Integer.parseInt(r[0]), Integer.parseInt(r[r.length - 1])});
            }
            out.add(new Node(nameByPort.getOrDefault(port, "127.0.0.1:" + port), f[0], List.of(f[2].split(",")),
                    f[3], slots));
        }
        return out;
    }

    /** The view of the first node that answers, in the stack's order. */
    public List<Node> view() {
        return view(firstAnswering());
    }

    /** The node that masters the key's slot now, in the view of a node that answers; empty during a failover. */
    public Optional<String> masterOf(String key) {
        int slot = keySlot(key);
        return view().stream().filter(n -> n.servingMaster() && n.serves(slot)).map(Node::name).findFirst();
    }

    /** Every master serving slots now. */
    public List<String> masters() {
        return view().stream().filter(n -> n.servingMaster() && !n.slots().isEmpty()).map(Node::name).toList();
    }

    /** How many keys {@code node} holds in the slot of {@code key}. */
    public long keysInSlot(String node, String key) {
        return Long.parseLong(command(node, "CLUSTER", "COUNTKEYSINSLOT", Integer.toString(keySlot(key))));
    }

    /** "master" or "slave", as the node itself says (ROLE). */
    public String role(String node) {
        return command(node, "ROLE").lines().findFirst().orElse("");
    }

    /**
     * The replicas {@code master} streams to now: those its INFO replication lists with state online (a replica still
     * loading its first full copy is not one, and WAIT does not count it).
     */
    public List<String> onlineReplicas(String master) {
        List<String> out = new ArrayList<>();
        for (String line : command(master, "INFO", "replication").split("\n")) {
            String l = line.strip();
            if (!l.matches("slave[0-9]+:.*") || !l.contains("state=online")) {
                continue;
            }
            for (String field : l.substring(l.indexOf(':') + 1).split(",")) {
                if (field.startsWith("port=")) {
                    int port = Integer.parseInt(field.substring("port=".length()));
                    out.add(nameByPort.getOrDefault(port, "127.0.0.1:" + port));
                }
            }
        }
        return out;
    }

    /** cluster_state (ok or fail) in the node's own view. */
    public String state(String node) {
        return command(node, "CLUSTER", "INFO").lines().filter(l -> l.startsWith("cluster_state:"))
                .map(l -> l.substring("cluster_state:".length()).strip()).findFirst().orElse("");
    }

    private String firstAnswering() {
        IllegalStateException last = null;
        for (String node : nameByPort.values()) {
            try {
                command(node, "PING");
                return node;
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw new IllegalStateException("no Redis node answers", last);
    }
}
