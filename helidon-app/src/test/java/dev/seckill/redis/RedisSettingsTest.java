package dev.seckill.redis;

import dev.seckill.config.TestConfig;
import io.helidon.config.Config;
import org.junit.jupiter.api.Test;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.ReadMode;
import org.redisson.config.SingleServerConfig;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The redis config section over application.yaml's defaults: one server or a cluster, the replica acknowledgements a
 * reservation needs, and how many attempts one call decides.
 */
class RedisSettingsTest {

    /** The redis section of application.yaml with these of its keys set. */
    private static Config redis(Map<String, String> keys) {
        Map<String, String> set = new HashMap<>();
        keys.forEach((k, v) -> set.put("redis." + k, v));
        return TestConfig.keys(set).get("redis");
    }

    /** Reads back what the factory configured (Redisson keeps its server configs protected). */
    private static final class Built extends org.redisson.config.Config {

        Built(RedisSettings s) {
            super(RedisClients.redissonConfig(s));
        }

        ClusterServersConfig cluster() {
            return getClusterServersConfig();
        }

        SingleServerConfig single() {
            return getSingleServerConfig();
        }
    }

    @Test
    void withoutNodesTheClientTalksToOneServerAtTheAddress() {
        RedisSettings s = RedisSettings.from(redis(Map.of("address", "redis://127.0.0.1:7000", "password", "pw")));
        assertFalse(s.cluster());
        Built built = new Built(s);
        assertTrue(built.isSingleConfig());
        assertEquals("redis://127.0.0.1:7000", built.single().getAddress());
        assertEquals(256, built.single().getConnectionPoolSize());
        assertEquals(1000, built.single().getTimeout());
        assertEquals(4, built.getNettyThreads());
        assertEquals("pw", built.getPassword());
    }

    @Test
    void withNodesTheClientRunsInClusterModeOnMastersAndIgnoresTheAddress() {
        RedisSettings s = RedisSettings.from(redis(Map.of("address", "redis://127.0.0.1:7000",
                "nodes", "redis://127.0.0.1:7001, 127.0.0.1:7002,,", "password", "pw", "pool", "64", "timeout-ms", "800")));
        assertTrue(s.cluster());
        Built built = new Built(s);
        assertTrue(built.isClusterConfig());
        assertEquals(List.of("redis://127.0.0.1:7001", "redis://127.0.0.1:7002"), built.cluster().getNodeAddresses());
        assertEquals(ReadMode.MASTER, built.cluster().getReadMode());
        assertEquals(64, built.cluster().getMasterConnectionPoolSize());
        assertEquals(800, built.cluster().getTimeout());
        assertEquals(1, built.cluster().getRetryAttempts());
        assertEquals("pw", built.getPassword());
    }

    @Test
    void anEmptyPasswordMeansNoAuth() {
        assertNull(new Built(RedisSettings.from(redis(Map.of()))).getPassword());
    }

    @Test
    void aNodeThatIsNotHostAndPortStopsTheStart() {
        for (String bad : List.of("127.0.0.1", "http://127.0.0.1:7001", "redis://127.0.0.1:7001/0", "redis://:7001")) {
            assertThrows(IllegalArgumentException.class, () -> RedisSettings.from(redis(Map.of("nodes", bad))), bad);
        }
        assertEquals(List.of("redis://[::1]:7001", "rediss://cache.example:6380"),
                RedisSettings.nodes("[::1]:7001,rediss://cache.example:6380"));
    }

    @Test
    void replicaAcksDefaultToNoWait() {
        ReplicaAcks acks = RedisSettings.from(redis(Map.of())).replicaAcks();
        assertFalse(acks.wanted());
        assertEquals(Duration.ofMillis(500), acks.timeout());
    }

    @Test
    void replicaAcksAreReadWithTheirTimeout() {
        ReplicaAcks acks = RedisSettings.from(redis(Map.of("replica-acks", "1", "replica-timeout-ms", "400")))
                .replicaAcks();
        assertEquals(new ReplicaAcks(1, Duration.ofMillis(400)), acks);
        assertTrue(acks.wanted());
        assertFalse(acks.satisfiedBy(0));
        assertTrue(acks.satisfiedBy(1));
    }

    @Test
    void aNegativeAckCountOrANonPositiveWaitStopsTheStart() {
        assertThrows(IllegalArgumentException.class, () -> RedisSettings.from(redis(Map.of("replica-acks", "-1"))));
        // WAIT n 0 would block until the replicas answer, however long that takes.
        assertThrows(IllegalArgumentException.class,
                () -> RedisSettings.from(redis(Map.of("replica-timeout-ms", "0"))));
    }

    @Test
    void aCallDecidesUpToSixtyFourAttemptsUnlessTheEnvironmentSaysOtherwise() {
        assertEquals(64, RedisSettings.from(redis(Map.of())).coalesceMax());
        assertEquals(1, RedisSettings.from(TestConfig.environment(Map.of("REDIS_COALESCE_MAX", "1")).get("redis"))
                .coalesceMax());
    }

    @Test
    void aPoolThatIsNotANumberStopsTheStartNamingTheKey() {
        assertEquals("redis.pool must be a whole number, not 'many'", assertThrows(IllegalArgumentException.class,
                () -> RedisSettings.from(redis(Map.of("pool", "many")))).getMessage());
    }
}
