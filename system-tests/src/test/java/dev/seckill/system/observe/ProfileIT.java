package dev.seckill.system.observe;

import dev.seckill.identity.TokenSigner;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/seckill profile start|stop DIR} around a few purchases through the edge records each part by its own
 * tool: a Flight Recording of the service, the writer and Kafka with its CPU samples by package, the purchase script's
 * calls in Redis's commandstats, the records Kafka took in, and perf's report of the edge's workers.
 */
class ProfileIT {

    private static final Duration COMMAND = Duration.ofMinutes(3);
    private static final int PURCHASES = 20;

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();
    private final TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());

    @Test
    void aProfileWindowRecordsEveryPartWithItsOwnTool(@TempDir Path dir) throws IOException {
        long sale = new AdminSales(stack, http).active("profile", PURCHASES);
        profile("start", dir);
        long first = System.nanoTime() % 1_000_000_000L + 4_000_000_000L;
        for (int i = 0; i < PURCHASES; i++) {
            HttpJson.Response r = http.post(stack.edgeUrl() + "/api/sales/" + sale + "/purchase", null,
                    "Authorization", HttpJson.bearer(signer.mint(first + i)));
            assertEquals(202, r.status(), r.body());
        }
        profile("stop", dir);

        for (String jvm : new String[] {"service", "writer", "kafka"}) {
            assertTrue(Files.size(dir.resolve(jvm + ".jfr")) > 0, jvm + " has a recording");
            assertTrue(Files.readString(dir.resolve(jvm + ".cpu-by-package.txt")).contains("%"),
                    jvm + "'s CPU samples by package");
        }
        String redis = Files.readString(dir.resolve("redis.commandstats.txt"));
        assertTrue(redis.lines().anyMatch(l -> l.startsWith("evalsha") || l.startsWith("eval ")),
                "the purchase script's calls over the window: " + redis);
        String kafka = Files.readString(dir.resolve("kafka.requests.txt"));
        long messagesIn = kafka.lines().filter(l -> l.contains("name=MessagesInPerSec"))
                .mapToLong(l -> Long.parseLong(l.trim().replaceAll(".*\\s", ""))).sum();
        assertTrue(messagesIn >= PURCHASES, "Kafka took in the window's orders: " + kafka);
        String edge = Files.readString(dir.resolve("edge.perf.txt"));
        // A window of 20 purchases may hold a handful of samples only: the report is perf's, on its cpu-clock event.
        assertTrue(edge.contains("of event 'cpu-clock'") && edge.contains("Overhead"), "perf's report of the edge: "
                + edge);
        assertTrue(Files.readString(dir.resolve("summary.txt")).contains("== redis.commandstats.txt"));
    }

    private void profile(String action, Path dir) {
        Stack.Outcome o = stack.run(Map.of(), COMMAND, "bin/seckill", "profile", action, dir.toString());
        assertEquals(0, o.exit(), o.output());
    }
}
