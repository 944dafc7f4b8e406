package dev.seckill.chaos.fault;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleTest {

    private static final List<String> NODES = List.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5", "redis-6",
            "db", "kafka-1", "kafka-2", "kafka-3", "service-1", "service-2", "writer-1", "writer-2", "edge-1",
            "edge-2", "lb", "lb-2");
    private static final Timeouts TIMEOUTS = Timeouts.read(Path.of("..").toAbsolutePath().normalize());

    private static Schedule of(long seed, Duration length, Set<FaultKind> kinds) {
        return Schedule.generate(seed, NODES, length, kinds, TIMEOUTS);
    }

    @Test
    void theTimeoutsAreTheConfigurationsOwn() {
        assertEquals(2000, TIMEOUTS.redisNodeTimeout());
        assertEquals(3000, TIMEOUTS.brokerSession());
        assertEquals(10000, TIMEOUTS.writerSession());
        assertEquals(1000, TIMEOUTS.serviceRedis());
        assertEquals(5000, TIMEOUTS.serviceKafkaDelivery());
        assertEquals(7500, TIMEOUTS.edgeRead());
        assertEquals(7750, TIMEOUTS.lbRead());
        assertEquals(8000, TIMEOUTS.deadline());
        assertEquals(10_000, TIMEOUTS.client());
    }

    @Test
    void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
        Set<FaultKind> all = EnumSet.allOf(FaultKind.class);
        assertEquals(of(1, Duration.ofMinutes(20), all), of(1, Duration.ofMinutes(20), all));
        assertNotEquals(of(1, Duration.ofMinutes(20), all).events(), of(2, Duration.ofMinutes(20), all).events());
    }

    @Test
    void atMostTwoFaultsAtOnceOnDistinctNodesAndNeverTwoOnRedis() {
        for (long seed = 0; seed < 200; seed++) {
            Schedule s = of(seed, Duration.ofMinutes(20), EnumSet.allOf(FaultKind.class));
            assertFalse(s.events().isEmpty(), "seed " + seed + " has no fault");
            for (FaultEvent a : s.events()) {
                long overlapping = s.events().stream().filter(b -> b != a && Schedule.overlap(a, b)).count();
                assertTrue(overlapping <= 1, "seed " + seed + ": " + Schedule.describe(a) + " overlaps " + overlapping);
                assertTrue(a.at().plus(a.span()).compareTo(s.length()) <= 0, "healed within the workload");
                for (FaultEvent b : s.events()) {
                    if (b != a && Schedule.overlap(a, b)) {
                        assertTrue(a.fault().nodes().stream().noneMatch(b.fault().nodes()::contains));
                        assertFalse(a.fault().nodes().stream().anyMatch(n -> n.startsWith("redis"))
                                && b.fault().nodes().stream().anyMatch(n -> n.startsWith("redis")));
                    }
                }
            }
        }
    }

    @Test
    void onlyTheKindsAskedForAndPausesBothSidesOfTheirTimeout() {
        boolean shorter = false, longer = false;
        for (long seed = 0; seed < 50; seed++) {
            for (FaultEvent e : of(seed, Duration.ofMinutes(10), EnumSet.of(FaultKind.PAUSE)).events()) {
                Fault.Pause p = (Fault.Pause) e.fault();
                long t = TIMEOUTS.watching(p.node());
                shorter |= e.span().toMillis() < t;
                longer |= e.span().toMillis() > t;
            }
        }
        assertTrue(shorter && longer, "pauses shorter and longer than the timeout that watches the node");
    }

    @Test
    void aShortRunStillHasFaults() {
        Schedule s = of(1, Duration.ofMinutes(3), EnumSet.allOf(FaultKind.class));
        assertTrue(s.events().size() >= 3, s.describe().toString());
    }

    @Test
    void partitionsCutOneNodeFromAnotherOrOneNodeFromTheRestOfItsGroup() {
        boolean pair = false, broker = false, redis = false;
        for (long seed = 0; seed < 100; seed++) {
            for (FaultEvent e : of(seed, Duration.ofMinutes(20), EnumSet.of(FaultKind.PARTITION)).events()) {
                Fault.Partition p = (Fault.Partition) e.fault();
                assertEquals(1, p.from().size(), Schedule.describe(e));
                if (p.to().size() == 1) {
                    pair = true;
                    continue;
                }
                String kind = p.from().getFirst().replaceFirst("-[0-9]+$", "");
                List<String> group = NODES.stream().filter(n -> n.startsWith(kind + "-")).toList();
                assertEquals(group.size() - 1, p.to().size(), Schedule.describe(e));
                assertTrue(group.containsAll(p.nodes()), Schedule.describe(e));
                broker |= kind.equals("kafka");
                redis |= kind.equals("redis");
            }
        }
        assertTrue(pair && broker && redis, "pairs, a broker from the other two, a Redis node from the other five");
    }
}
