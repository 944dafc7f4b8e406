package dev.seckill.chaos.fault;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.stream.Stream;

/** One fault the nemesis can inject on the cluster's nodes (names as bin/seckill status gives them). */
public sealed interface Fault {

    /** The nodes it touches. */
    List<String> nodes();

    @JsonProperty
    default FaultKind kind() {
        return switch (this) {
            case Kill k -> FaultKind.KILL;
            case Pause p -> FaultKind.PAUSE;
            case Partition p -> FaultKind.PARTITION;
        };
    }

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

    /**
     * No node of {@code from} reaches any node of {@code to} (and, when {@code bothWays}, none of {@code to} reaches
     * {@code from}): one node from another, or one node from the rest of its group (a broker from the other two).
     */
    record Partition(List<String> from, List<String> to, boolean bothWays) implements Fault {
        public Partition {
            from = List.copyOf(from);
            to = List.copyOf(to);
        }

        public List<String> nodes() {
            return Stream.concat(from.stream(), to.stream()).toList();
        }

        /** The node cut off, whose timeout the span is drawn against: {@code to}'s only node, else {@code from}'s. */
        public String isolated() {
            return to.size() == 1 ? to.getFirst() : from.getFirst();
        }
    }
}
