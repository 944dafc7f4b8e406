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

    private static final List<String> SINGLE = List.of("redis", "mysql", "kafka", "kafka-topics", "service", "writer",
            "edge");
    private static final List<String> CLUSTER = List.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5",
            "redis-6", "redis-cluster", "kafka-1", "kafka-2", "kafka-3", "kafka-topics-cluster", "service-1",
            "service-2", "writer-1", "writer-2", "edge-1", "edge-2", "lb");
    /** Run once, then done: the only services without a health check. */
    private static final List<String> ONE_SHOT = List.of("kafka-topics", "redis-cluster", "kafka-topics-cluster");

    @Test
    void composeFileParsesWithAllComponentsHealthChecksAndStartOrder() throws Exception {
        Result r = config(true);
        String text = r.output();
        assertEquals(0, r.exit(), text);
        Map<String, String> services = services(text);
        for (String service : SINGLE) {
            assertTrue(services.containsKey(service), "service " + service + " missing:\n" + text);
            assertFalse(services.get(service).contains("profiles:"), service + " is in a profile:\n" + text);
            assertEquals(!ONE_SHOT.contains(service), services.get(service).contains("healthcheck:"),
                    "health check of " + service + ":\n" + text);
        }
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

    /** Issue 13: the cluster topology as the profile "cluster", the same fleet as bin/seckill up --cluster. */
    @Test
    void theClusterProfileRendersTheWholeFleetBehindTheLoadBalancer() throws Exception {
        Result r = config(true, "--profile", "cluster");
        String text = r.output();
        assertEquals(0, r.exit(), text);
        Map<String, String> services = services(text);
        for (String service : CLUSTER) {
            String block = services.get(service);
            assertTrue(block != null, "service " + service + " missing:\n" + text);
            assertTrue(block.contains("profiles:\n    - cluster\n"), service + " is not in the cluster profile");
            assertEquals(!ONE_SHOT.contains(service), block.contains("healthcheck:"), "health check of " + service);
        }
        assertTrue(services.get("service-1").contains("SECKILL_NODE: '1'")
                && services.get("service-2").contains("SECKILL_NODE: '2'"), "distinct order-id nodes:\n" + text);
        for (String service : List.of("service-1", "service-2")) {
            String block = services.get(service);
            assertTrue(block.contains("REDIS_REPLICA_ACKS: '1'"), block);
            assertEquals(6, block.split("redis://redis-", -1).length - 1, "six Redis seeds: " + block);
            assertTrue(block.contains("KAFKA_BOOTSTRAP: kafka-1:9092,kafka-2:9092,kafka-3:9092"), block);
            assertTrue(block.contains("SECKILL_EDGE_ADMIN: http://edge-1:8080,http://edge-2:8080"), block);
        }
        assertTrue(services.get("lb").contains("- 127.0.0.1:8080:8080/tcp"), "the lb has the public port");
        for (String edge : List.of("edge-1", "edge-2")) {
            assertFalse(services.get(edge).contains("ports:"), edge + " is reachable only through the lb");
            assertTrue(services.get(edge).contains("SECKILL_EDGE_UPSTREAM: service-1:8081,service-2:8081"), edge);
        }
        assertTrue(services.get("kafka-topics-cluster").contains("--replication-factor 3"), text);
    }

    @Test
    void composeRefusesToStartWithoutItsSecrets() throws Exception {
        Result r = config(false);
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(SECRETS.stream().anyMatch(s -> r.output().contains("set " + s)),
                "names a missing secret: " + r.output());
    }

    /** Each service's block of the normalised file (its lines below "  name:"), by name. */
    private static Map<String, String> services(String config) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        String name = null;
        StringBuilder block = new StringBuilder();
        boolean inServices = false;
        for (String line : config.split("\n")) {
            if (!line.startsWith(" ")) {
                inServices = line.equals("services:");
            } else if (inServices && line.matches("  [a-z0-9-]+:")) {
                if (name != null) {
                    out.put(name, block.toString());
                }
                name = line.trim().replace(":", "");
                block.setLength(0);
                continue;
            }
            if (inServices && name != null) {
                block.append(line).append('\n');
            }
        }
        if (name != null) {
            out.put(name, block.toString());
        }
        return out;
    }

    private static Result config(boolean withSecrets, String... options) throws IOException, InterruptedException {
        Path home = Stack.get().home();
        Path out = Files.createTempFile("compose", ".yaml");
        List<String> cmd = new java.util.ArrayList<>(List.of("docker-compose", "-f", home.resolve("compose.yaml").toString()));
        cmd.addAll(List.of(options));
        cmd.add("config");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
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
