package dev.seckill.check;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sale's keys as the Redis master serving their slot holds them at the end of a run (docs/redis.md).
 *
 * @param node      the master read (a node name of the cluster, or the single stack's Redis)
 * @param remaining the stock key, null when it is missing
 * @param buyers    the buyers hash, userId to orderId
 * @param returned  the returned set: orders whose unit an expiry gave back
 * @param unsent    the unsent hash, userId to {@code "orderId:ms"}: sends still owed
 * @param meta      the window hash ({@code start}, {@code end}, {@code archived} once archived)
 * @param strays    other masters that hold keys in the sale's slot (a split brain's leftovers), normally none
 */
public record RedisSale(String node, Long remaining, Map<Long, Long> buyers, Set<Long> returned,
                        Map<Long, String> unsent, Map<String, String> meta, List<String> strays) {

    /** Whether the stock key is there (an archived sale's keys leave after their linger). */
    public boolean present() {
        return remaining != null;
    }

    /** Whether the archiving pass left its tombstone: keys missing then are archived, not lost. */
    public boolean archived() {
        return meta.containsKey("archived");
    }
}
