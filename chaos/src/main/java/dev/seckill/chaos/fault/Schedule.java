package dev.seckill.chaos.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.seckill.testkit.ClusterStack.kindOf;

/**
 * The nemesis's plan for one run, drawn from the seed and the node list only (with the checkout's timeouts, which
 * place the pauses' spans either side of the timeout that watches the node): the same seed gives the same schedule.
 * Faults come one or two at a time: a step holds one fault, or two whose planned spans overlap, on distinct nodes and
 * never both on Redis nodes (so each shard keeps a copy that answers); the next step starts after both are healed.
 */
public record Schedule(long seed, Duration length, List<FaultEvent> events) {

    private static final Duration WARM_UP_MAX = Duration.ofSeconds(20);
    private static final Duration COOL_DOWN_MAX = Duration.ofSeconds(25);
    /** The kinds of node that talk to each other: the cluster's wiring (docs/cluster.md). */
    private static final Set<Set<String>> TALK = Set.of(Set.of("service", "redis"), Set.of("service", "kafka"),
            Set.of("service", "db"), Set.of("writer", "kafka"), Set.of("writer", "db"), Set.of("kafka"),
            Set.of("redis"), Set.of("edge", "service"), Set.of("lb", "edge"));
    /** A pause's span beyond the timeout that watches the node is at most this long. */
    private static final long LONGEST_PAUSE_MS = 40_000;

    public Schedule {
        events = List.copyOf(events);
    }

    /** A schedule of faults of {@code kinds} on {@code nodes} for a workload of {@code length}. */
    public static Schedule generate(long seed, List<String> nodes, Duration length, Collection<FaultKind> kinds,
                                    Timeouts timeouts) {
        Random r = new Random(seed);
        List<FaultKind> allowed = List.of(FaultKind.values()).stream().filter(kinds::contains).toList();
        List<FaultEvent> events = new ArrayList<>();
        if (allowed.isEmpty() || nodes.isEmpty()) {
            return new Schedule(seed, length, events);
        }
        long total = length.toMillis();
        long t = Math.min(WARM_UP_MAX.toMillis(), total / 6);
        long limit = total - Math.min(COOL_DOWN_MAX.toMillis(), total / 6);
        Draw draw = new Draw(r, nodes, allowed, timeouts);
        for (int attempts = 0; attempts < 1000; attempts++) {
            Fault a = draw.fault(Set.of());
            long spanA = draw.span(a);
            if (t + spanA > limit) {
                // The last step may still fit with a shorter fault: try a few times, then stop.
                if (attempts > 20) {
                    break;
                }
                continue;
            }
            events.add(new FaultEvent(events.size() + 1, a, Duration.ofMillis(t), Duration.ofMillis(spanA)));
            long end = t + spanA;
            if (r.nextDouble() < 0.4) {
                Set<String> taken = new HashSet<>(a.nodes());
                Fault b = draw.fault(taken);
                if (b != null && !(touchesRedis(a) && touchesRedis(b))) {
                    long offset = (long) (r.nextDouble() * spanA * 0.6);
                    long spanB = draw.span(b);
                    if (t + offset + spanB <= limit) {
                        events.add(new FaultEvent(events.size() + 1, b, Duration.ofMillis(t + offset),
                                Duration.ofMillis(spanB)));
                        end = Math.max(end, t + offset + spanB);
                    }
                }
            }
            t = end + 4_000 + r.nextInt(8_000);
            if (t >= limit) {
                break;
            }
        }
        return new Schedule(seed, length, events);
    }

    /** Whether two events are planned to be in force at the same time (the nemesis injects them together). */
    public static boolean overlap(FaultEvent a, FaultEvent b) {
        long a0 = a.at().toMillis(), a1 = a0 + a.span().toMillis();
        long b0 = b.at().toMillis(), b1 = b0 + b.span().toMillis();
        return a0 < b1 && b0 < a1;
    }

    /** The nodes a partition moves into a cgroup of their own: every source of dropped packets. */
    public Set<String> partitionSources() {
        Set<String> out = new java.util.TreeSet<>();
        for (FaultEvent e : events) {
            if (e.fault() instanceof Fault.Partition p) {
                out.addAll(p.from());
                if (p.bothWays()) {
                    out.addAll(p.to());
                }
            }
        }
        return out;
    }

    private static boolean touchesRedis(Fault f) {
        return f.nodes().stream().anyMatch(n -> n.startsWith("redis-"));
    }

    /** One line a fault: "#3 at 1:05 for 12.4 s: pause kafka-2". */
    public List<String> describe() {
        return events.stream().map(Schedule::describe).toList();
    }

    public static String describe(FaultEvent e) {
        return String.format(Locale.ROOT, "#%d at %s for %.1f s: %s", e.number(), clock(e.at().toMillis()),
                e.span().toMillis() / 1000.0, describe(e.fault()));
    }

    public static String describe(Fault f) {
        return switch (f) {
            case Fault.Kill k -> "kill " + k.node();
            case Fault.Pause p -> "pause " + p.node();
            case Fault.Partition p -> "partition " + String.join(",", p.from()) + (p.bothWays() ? " <-/-> " : " -/-> ")
                    + String.join(",", p.to()) + (p.bothWays() ? " (both ways)" : " (one way)");
        };
    }

    /** m:ss of a run's milliseconds. */
    public static String clock(long millis) {
        long s = Math.max(0, millis) / 1000;
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** What draws the faults and their spans, in a fixed order of calls on the one Random. */
    private record Draw(Random r, List<String> nodes, List<FaultKind> kinds, Timeouts timeouts) {

        /** A fault on nodes outside {@code taken}, or null when none is left. */
        Fault fault(Set<String> taken) {
            List<String> free = nodes.stream().filter(n -> !taken.contains(n)).toList();
            if (free.size() < 2) {
                return null;
            }
            FaultKind kind = kinds.get(r.nextInt(kinds.size()));
            return switch (kind) {
                case KILL -> new Fault.Kill(free.get(r.nextInt(free.size())));
                case PAUSE -> new Fault.Pause(free.get(r.nextInt(free.size())));
                case PARTITION -> partition(free);
            };
        }

        /**
         * One time in four one Kafka or Redis node from the rest of its group (each of them free), else between two
         * nodes that talk to each other; which way(s) is drawn too.
         */
        private Fault partition(List<String> free) {
            if (r.nextInt(4) == 0) {
                List<String> alone = free.stream().filter(n -> groupKinds(n) && peers(n).size() >= 2
                        && free.containsAll(peers(n))).toList();
                if (!alone.isEmpty()) {
                    String n = alone.get(r.nextInt(alone.size()));
                    return new Fault.Partition(List.of(n), peers(n), r.nextBoolean());
                }
            }
            List<String[]> pairs = new ArrayList<>();
            for (String a : free) {
                for (String b : free) {
                    if (a.compareTo(b) < 0 && talk(a, b)) {
                        pairs.add(new String[]{a, b});
                    }
                }
            }
            if (pairs.isEmpty()) {
                return new Fault.Pause(free.get(r.nextInt(free.size())));
            }
            String[] p = pairs.get(r.nextInt(pairs.size()));
            boolean flip = r.nextBoolean();
            return new Fault.Partition(List.of(flip ? p[1] : p[0]), List.of(flip ? p[0] : p[1]), r.nextBoolean());
        }

        /** Kafka's brokers and Redis's nodes talk among themselves (the controller quorum, the cluster bus). */
        private static boolean groupKinds(String node) {
            return kindOf(node).equals("kafka") || kindOf(node).equals("redis");
        }

        /** The other nodes of the run of the same kind. */
        private List<String> peers(String node) {
            return nodes.stream().filter(n -> !n.equals(node) && kindOf(n).equals(kindOf(node))).toList();
        }

        /** Whether one opens connections to the other ({@link #TALK}). */
        private static boolean talk(String a, String b) {
            return TALK.contains(Stream.of(kindOf(a), kindOf(b)).collect(Collectors.toSet()));
        }

        /**
         * How long a fault lasts before its heal: a kill 3-15 s (the node's restart adds its own time); a pause or
         * a partition either within the timeout that watches the node (30-70 % of it) or well past it (1.5-2.5
         * times it, plus a second), drawn half and half.
         */
        long span(Fault f) {
            if (f instanceof Fault.Kill) {
                return 3_000 + r.nextInt(12_000);
            }
            String watched = switch (f) {
                case Fault.Pause p -> p.node();
                case Fault.Partition p -> p.isolated();
                case Fault.Kill k -> k.node();
            };
            long timeout = timeouts.watching(watched);
            boolean longer = r.nextBoolean();
            double factor = longer ? 1.5 + r.nextDouble() : 0.3 + 0.4 * r.nextDouble();
            long span = (long) (timeout * factor) + (longer ? 1_000 : 0);
            return Math.max(500, Math.min(span, LONGEST_PAUSE_MS));
        }
    }
}
