package dev.seckill.system;

import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml cannot run here (no Docker engine), but it must stay valid and keep the topology: Debian's
 * docker-compose parses and normalises it, and every long-running service has a health check. It has no default
 * secrets: without them it refuses to start.
 */
class ComposeConfigIT {

    private static final List<String> SECRETS = List.of("SECKILL_TOKEN_SECRET", "SECKILL_ADMIN_TOKEN",
            "SECKILL_REDIS_PASSWORD", "SECKILL_DB_PASSWORD", "SECKILL_DB_ROOT_PASSWORD");

    private record Result(int exit, String output) {
    }

    @Test
    void composeFileParsesWithAllComponentsHealthChecksAndStartOrder() throws Exception {
        Result r = config(true);
        String text = r.output();
        assertEquals(0, r.exit(), text);
        for (String service : List.of("redis", "mysql", "kafka", "kafka-topics", "service", "writer", "edge")) {
            assertTrue(text.contains("\n  " + service + ":\n"), "service " + service + " missing:\n" + text);
        }
        assertEquals(6, text.split("healthcheck:", -1).length - 1, "health checks:\n" + text);
        assertTrue(text.contains("condition: service_healthy"), text);
        assertTrue(text.contains("condition: service_completed_successfully"), text);
        assertTrue(text.contains("image: openresty/openresty"), text);
        assertTrue(text.contains("image: mysql:8"), text);
        assertTrue(text.contains("image: apache/kafka"), text);
    }

    @Test
    void everySecretReachesItsServicesAndEveryPublishedPortIsOnLoopback() throws Exception {
        Result r = config(true);
        String text = r.output();
        assertEquals(0, r.exit(), text);
        for (String secret : SECRETS) {
            assertTrue(text.contains(": value-of-" + secret + "\n"), secret + " not passed:\n" + text);
        }
        assertTrue(text.contains("ADMIN_PORT: '8083'"), "the admin listener is configured:\n" + text);
        assertTrue(text.contains("SECKILL_DEMO_LOGIN: \"false\""), "demo sign-in off by default:\n" + text);
        text.lines().filter(l -> l.matches("\\s+- .*:[0-9]+/tcp")).forEach(port ->
                assertTrue(port.trim().startsWith("- 127.0.0.1:"), "published beyond loopback: " + port));
        assertFalse(text.contains("-pseckill") || text.contains("change-me"), "a default secret:\n" + text);
    }

    @Test
    void composeRefusesToStartWithoutItsSecrets() throws Exception {
        Result r = config(false);
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(SECRETS.stream().anyMatch(s -> r.output().contains("set " + s)),
                "names a missing secret: " + r.output());
    }

    private static Result config(boolean withSecrets) throws IOException, InterruptedException {
        Path home = Stack.get().home();
        Path out = Files.createTempFile("compose", ".yaml");
        ProcessBuilder pb = new ProcessBuilder("docker-compose", "-f", home.resolve("compose.yaml").toString(), "config")
                .redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        // Whatever the test's own environment holds, each case decides which secrets compose sees.
        SECRETS.forEach(env::remove);
        env.remove("SECKILL_DEMO_LOGIN");
        if (withSecrets) {
            SECRETS.forEach(s -> env.put(s, "value-of-" + s));
        }
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "docker-compose config hung");
        String text = Files.readString(out);
        Files.deleteIfExists(out);
        return new Result(p.exitValue(), text);
    }
}
