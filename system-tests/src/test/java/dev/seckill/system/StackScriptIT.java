package dev.seckill.system;

import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/seckill's own answers: one clear line for each way a start can fail, and a status that tells the truth. */
class StackScriptIT {

    private static final Duration SCRIPT = Duration.ofSeconds(120);
    private final Stack stack = Stack.get();

    private Map<String, String> isolated(Path dir) {
        Map<String, String> env = new HashMap<>();
        env.put("SECKILL_RUN_DIR", dir.toString());
        return env;
    }

    @Test
    void aTakenPortIsRefusedWithOneClearLine() throws Exception {
        Path dir = Files.createTempDirectory("seckill-port");
        try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Map<String, String> env = isolated(dir);
            env.put("SECKILL_REDIS_PORT", Integer.toString(squatter.getLocalPort()));
            Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
            assertNotEquals(0, o.exit(), o.output());
            String last = o.output().strip().lines().reduce((a, b) -> b).orElse("");
            assertEquals("seckill: port " + squatter.getLocalPort() + " for redis is already taken by another process"
                    + " (set SECKILL_REDIS_PORT to move it)", last, o.output());
        }
    }

    @Test
    void noJdk21IsReportedWithOneClearLine() throws Exception {
        Path dir = Files.createTempDirectory("seckill-jdk");
        Path noJvms = Files.createTempDirectory("no-jvms");
        Map<String, String> env = isolated(dir);
        env.put("SECKILL_JVM_DIR", noJvms.toString());
        env.put("JAVA_HOME", null);
        Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "status");
        assertNotEquals(0, o.exit(), o.output());
        assertTrue(o.output().strip().startsWith("seckill: no JDK 21+ found"), o.output());
        assertEquals(1, o.output().strip().lines().count(), o.output());
    }

    @Test
    void aComponentThatFailsToStartNamesItsLog() throws Exception {
        Path dir = Files.createTempDirectory("seckill-broken");
        // A port number out of range makes redis-server exit at once.
        Map<String, String> env = isolated(dir);
        env.put("SECKILL_REDIS_PORT", "99999");
        Stack.Outcome o = stack.run(env, SCRIPT, "bin/seckill", "up", "redis");
        assertNotEquals(0, o.exit(), o.output());
        String last = o.output().strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("seckill: redis failed to start") && last.contains(dir.resolve("redis").toString()),
                o.output());
    }

    @Test
    void statusShowsEveryComponentOfTheRunningStackHealthy() {
        String out = stack.seckill(SCRIPT, "status");
        for (String c : new String[]{"redis", "db", "kafka", "service", "writer", "edge"}) {
            assertTrue(out.lines().anyMatch(l -> l.startsWith(c + " ") && l.endsWith("healthy") && !l.endsWith("unhealthy")),
                    c + " not healthy in:\n" + out);
        }
    }
}
