package dev.seckill.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The walking skeleton is wired: through the edge, the service is ready with all three dependencies UP. */
class SkeletonIT {

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void healthThroughTheEdgeIsUpWithRedisKafkaAndTheDatabase() {
        HttpJson.Response r = http.get(stack.edgeUrl() + "/observe/health");
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
