package dev.seckill.check;

import dev.seckill.redis.Keys;
import org.redisson.api.RedissonClient;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A sale's Redis keys (named by the service's {@link Keys}), read with a client of the one server that holds their
 * slot (the single stack's Redis, or the cluster master serving it), opened with the service's codec.
 */
final class SaleKeys {

    private SaleKeys() {
    }

    /**
     * @param node   who answers for the sale's slot
     * @param strays other masters that hold keys in the same slot (a split brain's leftovers)
     */
    static RedisSale read(long saleId, RedissonClient redis, String node, List<String> strays) {
        Object stock = redis.getBucket(Keys.stock(saleId)).get();
        Map<Long, Long> buyers = new LinkedHashMap<>();
        strings(redis, Keys.buyers(saleId)).forEach((u, o) -> buyers.put(Long.parseLong(u), Long.parseLong(o)));
        Set<Long> returned = redis.getSet(Keys.returned(saleId)).readAll().stream()
                .map(m -> Long.parseLong(m.toString())).collect(Collectors.toCollection(TreeSet::new));
        Map<Long, String> unsent = new LinkedHashMap<>();
        strings(redis, Keys.unsent(saleId)).forEach((u, v) -> unsent.put(Long.parseLong(u), v));
        return new RedisSale(node, stock == null ? null : Long.parseLong(stock.toString()), buyers, returned, unsent,
                strings(redis, Keys.meta(saleId)), strays);
    }

    /** A hash's fields and values as strings; empty when it is missing. */
    private static Map<String, String> strings(RedissonClient redis, String key) {
        Map<String, String> out = new LinkedHashMap<>();
        redis.getMap(key).readAllMap().forEach((k, v) -> out.put(k.toString(), v.toString()));
        return out;
    }
}
