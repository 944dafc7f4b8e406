package dev.seckill.chaos.check;

import dev.seckill.redis.Keys;
import dev.seckill.testkit.RedisCluster;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One sale's keys on the cluster, asked with {@code redis-cli} of the master that serves their slot (a sale's keys
 * share a hash tag, so one slot and one master), after a look at every other master for keys left in that slot.
 */
final class ClusterKeyReader implements SaleKeys.Reader {

    private final RedisCluster redis;
    private final String master;
    private final List<String> strays;

    ClusterKeyReader(RedisCluster redis, long saleId) {
        this.redis = redis;
        String key = Keys.stock(saleId);
        this.master = redis.masterOf(key).orElseThrow(() -> new IllegalStateException(
                "no Redis master serves the slot of " + key + ": is the cluster healed?"));
        this.strays = redis.masters().stream().filter(n -> !n.equals(master))
                .filter(n -> redis.keysInSlot(n, key) > 0).toList();
    }

    @Override
    public String node() {
        return master;
    }

    // redis-cli prints raw replies when its output is not a terminal: a nil or an empty collection is an empty line,
    // each element of a collection a line of its own. No key of a sale holds an empty string or a newline.
    @Override
    public String get(String key) {
        String v = redis.command(master, "GET", key);
        return v.isEmpty() ? null : v;
    }

    @Override
    public Map<String, String> hash(String key) {
        List<String> lines = lines(redis.command(master, "HGETALL", key));
        if (lines.size() % 2 != 0) {
            throw new IllegalStateException("HGETALL " + key + " on " + master + " gave an odd count: " + lines);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i += 2) {
            out.put(lines.get(i), lines.get(i + 1));
        }
        return out;
    }

    @Override
    public Set<String> members(String key) {
        return new LinkedHashSet<>(lines(redis.command(master, "SMEMBERS", key)));
    }

    @Override
    public List<String> strays() {
        return strays;
    }

    private static List<String> lines(String text) {
        return text.isEmpty() ? List.of() : text.lines().map(String::strip).toList();
    }
}
