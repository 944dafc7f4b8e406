package dev.seckill.system;

import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml cannot run here (no Docker engine), but it must stay valid and keep the topology: Debian's
 * docker-compose parses and normalises it, and every long-running service has a health check.
 */
class ComposeConfigIT {

    @Test
    void composeFileParsesWithAllComponentsHealthChecksAndStartOrder() throws Exception {
        Path home = Stack.get().home();
        Path out = Files.createTempFile("compose", ".yaml");
        Process p = new ProcessBuilder("docker-compose", "-f", home.resolve("compose.yaml").toString(), "config")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "docker-compose config hung");
        String text = Files.readString(out);
        Files.deleteIfExists(out);
        assertEquals(0, p.exitValue(), text);
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
}
