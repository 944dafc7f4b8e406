package dev.seckill.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;
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
            if (ref != null && ref.isTextual() && ref.asText().startsWith("#")) {
                o.put("$ref", base + ref.asText());
            }
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                absolute(e.getValue(), base);
            }
        } else if (node.isArray()) {
            node.forEach(n -> absolute(n, base));
        }
        return node;
    }

    /** {@code text} parsed by {@code mapper}; a document that does not parse is an error of the checkout. */
    static JsonNode read(ObjectMapper mapper, String text) {
        try {
            return mapper.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
