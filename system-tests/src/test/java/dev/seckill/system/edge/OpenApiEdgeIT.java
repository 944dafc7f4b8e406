package dev.seckill.system.edge;

import dev.seckill.testkit.ApiContract;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The OpenAPI document reaches the public through the stack's edge: GET /openapi is the repository's
 * document, OpenAPI 3.1.0, as YAML and as JSON; nothing else of the service's is opened by it.
 */
class OpenApiEdgeIT {

    private final Stack stack = Stack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void theEdgeServesTheRepositoryDocumentAsYamlAndAsJson() throws Exception {
        JsonNode expected = ApiContract.get().document();
        assertEquals("3.1.0", expected.path("openapi").asText());

        HttpJson.Response yaml = http.get(stack.edgeUrl() + "/openapi");
        assertEquals(200, yaml.status(), yaml.body());
        assertEquals(expected, YAMLMapper.builder().build().readTree(yaml.body()));

        HttpJson.Response json = http.get(stack.edgeUrl() + "/openapi", "Accept", "application/json");
        assertEquals(200, json.status(), json.body());
        assertEquals(expected, JsonMapper.builder().build().readTree(json.body()));
    }

    @Test
    void onlyGetReachesIt() {
        HttpJson.Response post = http.post(stack.edgeUrl() + "/openapi", "{}");
        assertEquals(405, post.status(), post.body());
        assertEquals("METHOD_NOT_ALLOWED", post.code());
        assertEquals(404, http.get(stack.edgeUrl() + "/openapi/x").status());
    }
}
