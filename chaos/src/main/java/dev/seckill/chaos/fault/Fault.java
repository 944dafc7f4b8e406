package dev.seckill.chaos.fault;

import java.util.List;

/** One fault the nemesis can inject on the cluster's nodes (names as bin/seckill status gives them). */
public sealed interface Fault {

    /** The nodes it touches. */
    List<String> nodes();

    /** SIGKILL of the node and every process it started; healed by starting it again. */
    record Kill(String node) implements Fault {
        public List<String> nodes() {
            return List.of(node);
        }
    }

    /** SIGSTOP of the node's processes; healed by SIGCONT. */
    record Pause(String node) implements Fault {
        public List<String> nodes() {
            return List.of(node);
        }
    }

    /** {@code from} cannot reach {@code to} (and, when {@code bothWays}, {@code to} cannot reach {@code from}). */
    record Partition(String from, String to, boolean bothWays) implements Fault {
        public List<String> nodes() {
            return List.of(from, to);
        }
    }
}
