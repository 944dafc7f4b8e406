package dev.seckill.chaos.check;

import org.redisson.api.RedissonClient;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The single stack's Redis (one server holds every sale), read through a client opened as the service opens it. */
final class StackKeyReader implements SaleKeys.Reader {

    private final RedissonClient redis;
    private final String node;

    /** {@code redis} (with the service's string codec) stays the caller's to shut down. */
    StackKeyReader(RedissonClient redis, String node) {
        this.redis = redis;
        this.node = node;
    }

    @Override
    public String node() {
        return node;
    }

    @Override
    public String get(String key) {
        Object v = redis.getBucket(key).get();
        return v == null ? null : v.toString();
    }

    @Override
    public Map<String, String> hash(String key) {
        Map<String, String> out = new LinkedHashMap<>();
        redis.getMap(key).readAllMap().forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }

    @Override
    public Set<String> members(String key) {
        Set<String> out = new LinkedHashSet<>();
        redis.getSet(key).readAll().forEach(m -> out.add(m.toString()));
        return out;
    }

    @Override
    public List<String> strays() {
        return List.of();
    }
}
