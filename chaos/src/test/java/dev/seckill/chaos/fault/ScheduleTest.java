package dev.seckill.chaos.fault;

import dev.seckill.testkit.ClusterStack;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleTest {

    private static final List<String> NODES = List.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5", "redis-6",
            "db", "kafka-1", "kafka-2", "kafka-3", "service-1", "service-2", "writer-1", "writer-2", "edge-1",
            "edge-2", "lb", "lb-2");
    private static final Timeouts TIMEOUTS = Timeouts.read(ClusterStack.get()::setting);

    private static Schedule of(long seed, Duration length, Set<FaultKind> kinds) {
        return Schedule.generate(seed, NODES, length, kinds, TIMEOUTS);
    }

    @Test
    void theTimeoutsAreTheClusterSettings() {
        Timeouts t = Timeouts.read(Map.of("REDIS_NODE_TIMEOUT_MS", "2100", "KAFKA_BROKER_SESSION_MS", "3100",
                "WRITER_SESSION_TIMEOUT_MS", "10100", "WRITER_BACKOFF_MAX_MS", "5100", "DEADLINE_MS", "8100")::get);
        assertEquals(new Timeouts(2100, 3100, 10100, 5100, 8100), t);
        assertEquals(2100, t.watching("redis-4"));
        assertEquals(3100, t.watching("kafka-2"));
        assertEquals(10100, t.watching("writer-1"));
        assertEquals(5100, t.watching("db"));
        assertEquals(8100, t.watching("service-2"));
        assertEquals(8100, t.watching("edge-1"));
        assertEquals(10_100, t.watching("lb-2"));
        assertEquals(10_100, t.client());
    }

    @Test
    void aSettingThatIsNotMillisecondsIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Timeouts.read(
                Map.of("REDIS_NODE_TIMEOUT_MS", "2s")::get));
        assertTrue(e.getMessage().contains("REDIS_NODE_TIMEOUT_MS"), e.getMessage());
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
