package dev.seckill.chaos.check;

import dev.seckill.redis.Keys;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** A sale's Redis keys (named by the service's {@link Keys}), read through whatever reaches the master serving them. */
final class SaleKeys {

    /** Reads one key of one sale's slot; missing keys read as null, an empty hash or an empty set. */
    interface Reader {
        /** Who answers for the sale's slot. */
        String node();

        String get(String key);

        Map<String, String> hash(String key);

        Set<String> members(String key);

        /** Other masters that hold keys in the same slot (a split brain's leftovers). */
        List<String> strays();
    }

    private SaleKeys() {
    }

    static RedisSale read(long saleId, Reader r) {
        String stock = r.get(Keys.stock(saleId));
        Map<Long, Long> buyers = new LinkedHashMap<>();
        r.hash(Keys.buyers(saleId)).forEach((u, o) -> buyers.put(Long.parseLong(u), Long.parseLong(o)));
        Set<Long> returned = r.members(Keys.returned(saleId)).stream().map(Long::parseLong)
                .collect(Collectors.toCollection(TreeSet::new));
        Map<Long, String> unsent = new LinkedHashMap<>();
        r.hash(Keys.unsent(saleId)).forEach((u, v) -> unsent.put(Long.parseLong(u), v));
        return new RedisSale(r.node(), stock == null ? null : Long.parseLong(stock), buyers, returned, unsent,
                r.hash(Keys.meta(saleId)), r.strays());
    }
}
