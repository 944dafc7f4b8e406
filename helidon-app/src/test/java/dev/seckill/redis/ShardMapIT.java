package dev.seckill.redis;

import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.redisson.api.RedissonClient;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shard map read from the service's own client, on the stack's single server: one master for every sale, so
 * one Redis breaker (the cluster's map: ClusterScriptsIT).
 */
@DisabledIfEnvironmentVariable(named = "SECKILL_REDIS_NODES", matches = ".+")
class ShardMapIT {

    @Test
    void aSingleServerIsTheOneMasterOfEverySale() {
        RedissonClient redis = StackRedis.connect(RedisClients::connect);
        try {
            ShardMap shards = ShardMap.of(redis);
            String before = shards.masterOf(1);
            String server = "127.0.0.1:" + Stack.get().redisPort();
            assertTrue(before.equals(server) || before.equals(ShardMap.UNRESOLVED),
                    "before the lazy client's first command: the server or unresolved, not " + before);
            redis.getBucket(Keys.stock(1)).isExists();
            assertEquals(server, shards.masterOf(1));
            assertEquals(server, shards.masterOf(987_654_321), "every sale, whatever its slot");
            assertEquals(Set.of(server), shards.masters());
        } finally {
            redis.shutdown();
        }
    }
}
