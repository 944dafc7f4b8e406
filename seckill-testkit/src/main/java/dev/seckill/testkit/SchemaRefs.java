package dev.seckill.testkit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The contracts' one rewrite of a schema taken out of its document: local refs ({@code #/components/...}) made
 * absolute against the document's registered base, so they resolve wherever the schema node sits.
 */
final class SchemaRefs {

    private SchemaRefs() {
    }

    /** Rewrites {@code node} in place and returns it. */
    static JsonNode absolute(JsonNode node, String base) {
        if (node instanceof ObjectNode o) {
            JsonNode ref = o.get("$ref");
            if (ref != null && ref.isString() && ref.asString().startsWith("#")) {
                o.put("$ref", base + ref.asString());
            }
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                absolute(e.getValue(), base);
            }
        } else if (node.isArray()) {
            node.forEach(n -> absolute(n, base));
        }
        return node;
    }
}
