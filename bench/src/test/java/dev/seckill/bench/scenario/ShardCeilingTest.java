package dev.seckill.bench.scenario;

import dev.seckill.redis.Keys;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShardCeilingTest {

    @Test
    void theBenchmarksCallNamesEveryKeyOfPurchaseLuaWithItsCount() throws Exception {
        List<String> keys = Keys.purchase(ShardCeiling.TEST_SALE, 1).stream().map(String::valueOf).toList();
        List<String> cmd = new ArrayList<>(ShardCeiling.evalsha("sha", keys));
        cmd.add(keys.getLast());
        assertEquals(List.of("EVALSHA", "sha", Integer.toString(keys.size())), cmd.subList(0, 3));
        assertEquals(keys, cmd.subList(3, cmd.size()), "the sale's keys, then the buyer's bucket");

        // purchase.lua reads its buyers' buckets after its shared keys: KEYS[n + i].
        String script = Files.readString(Stack.findHome().resolve("lua/purchase.lua"));
        Matcher m = Pattern.compile("KEYS\\[(\\d+) \\+ i\\]").matcher(script);
        assertTrue(m.find(), "purchase.lua names its buckets as KEYS[n + i]");
        assertEquals(keys.size() - 1, Integer.parseInt(m.group(1)), "the shared keys before the first bucket");
    }
}
