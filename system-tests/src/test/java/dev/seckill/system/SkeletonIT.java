package dev.seckill.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The walking skeleton is wired: through the edge the public health answer is UP (and says no more); on the
 * service's internal listener the detailed one has all three dependencies UP; the writer is UP.
 */
class SkeletonIT {

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void publicHealthThroughTheEdgeIsUpWithoutDetails() {
        HttpJson.Response r = http.get(stack.edgeUrl() + "/api/health");
        assertEquals(200, r.status(), r.body());
        assertEquals("UP", r.json().path("code").asText(), r.body());
        assertEquals(1, r.json().size(), "nothing but the code: " + r.body());
    }

    @Test
    void detailedHealthOnTheAdminListenerIsUpWithRedisKafkaAndTheDatabase() {
        HttpJson.Response r = http.get(stack.adminUrl() + "/observe/health");
        assertEquals(200, r.status(), r.body());
        JsonNode body = r.json();
        assertEquals("UP", body.path("status").asText(), r.body());
        Map<String, String> checks = new HashMap<>();
        body.path("checks").forEach(c -> checks.put(c.path("name").asText(), c.path("status").asText()));
        assertEquals(Map.of("redis", "UP", "kafka", "UP", "db", "UP"), checks, r.body());
    }

    @Test
    void writerHealthIsUp() {
        HttpJson.Response r = http.get(stack.writerUrl() + "/observe/health");
        assertEquals(200, r.status(), r.body());
        assertEquals("UP", r.json().path("status").asText(), r.body());
    }
}
