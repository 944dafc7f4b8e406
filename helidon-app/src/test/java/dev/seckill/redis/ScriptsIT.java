package dev.seckill.redis;

import dev.seckill.testkit.StackRedis;
import org.redisson.api.RedissonClient;

/** The scripts' contract on the stack's Redis. */
class ScriptsIT extends LineScriptContract {

    @Override
    RedissonClient connect() {
        return StackRedis.connect(RedisClients::connect);
    }
}
