package dev.seckill.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Checks a Kafka record against the repository's AsyncAPI 3 document ({@value #DOCUMENT}), as {@link ApiContract}
 * checks HTTP answers against the OpenAPI one: the topic must be the address of one of the document's channels, and
 * the record must match one of that channel's messages: its value the message's payload schema, its key the
 * message's Kafka binding key schema. The schemas are AsyncAPI's default format, a superset of JSON Schema draft 07,
 * validated as draft 07 (networknt). A mismatch fails the test with what differed. Every test that reads an event
 * of a described topic calls {@link #check}.
 */
public final class EventContract {

    /** The document, relative to the repository root. */
    public static final String DOCUMENT = "docs/asyncapi.yaml";

    private static final String BASE = "https://seckill.dev/asyncapi.json";
    private static volatile EventContract shared;

    private final JsonNode doc;
    private final SchemaRegistry registry;
    private final Map<JsonNode, Schema> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger inline = new AtomicInteger();

    EventContract(String yaml) {
        this.doc = SchemaRefs.read(YAMLMapper.builder().build(), yaml);
        if (!doc.path("asyncapi").asText("").startsWith("3.")) {
            throw new IllegalStateException(DOCUMENT + " is not an AsyncAPI 3 document");
        }
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7,
                b -> b.schemas(Map.of(BASE, doc.toString())));
    }

    /** The contract of the repository this test runs in (read once). */
    public static EventContract get() {
        EventContract c = shared;
        if (c == null) {
            synchronized (EventContract.class) {
                if (shared == null) {
                    Path file = Stack.findHome().resolve(DOCUMENT);
                    try {
                        shared = new EventContract(Files.readString(file));
                    } catch (IOException e) {
                        throw new UncheckedIOException("failed to read the AsyncAPI document " + file, e);
                    }
                }
                c = shared;
            }
        }
        return c;
    }

    /**
     * Fails (AssertionError) unless the document describes this record of this topic.
     *
     * @param key   the record's key bytes (UTF-8 text), or null
     * @param value the record's value bytes
     */
    public static void check(String topic, byte[] key, byte[] value) {
        get().verify(topic, key == null ? null : new String(key, StandardCharsets.UTF_8),
                new String(value, StandardCharsets.UTF_8));
    }

    void verify(String topic, String key, String value) {
        JsonNode channel = channel(topic);
        if (channel == null) {
            fail(topic, "no channel of the document has this address", value);
        }
        List<String> why = new ArrayList<>();
        for (JsonNode message : channel.path("messages")) {
            String mismatch = mismatch(resolve(message), key, value);
            if (mismatch == null) {
                return;
            }
            why.add(mismatch);
        }
        fail(topic, why.isEmpty() ? "the channel has no messages" : String.join("; ", why), value);
    }

    private String mismatch(JsonNode message, String key, String value) {
        String name = message.path("name").asText("a message");
        JsonNode payload = message.get("payload");
        if (payload != null) {
            List<Error> errors = schema(payload).validate(value, InputFormat.JSON);
            if (!errors.isEmpty()) {
                return name + ": the value does not match its payload schema: " + errors;
            }
        }
        JsonNode keySchema = message.path("bindings").path("kafka").get("key");
        if (keySchema != null) {
            if (key == null) {
                return name + ": the record has no key";
            }
            List<Error> errors = schema(keySchema).validate(TextNode.valueOf(key).toString(),
                    InputFormat.JSON);
            if (!errors.isEmpty()) {
                return name + ": key " + key + " does not match its schema: " + errors;
            }
        }
        return null;
    }

    private JsonNode channel(String topic) {
        for (JsonNode c : doc.path("channels")) {
            JsonNode channel = resolve(c);
            if (topic.equals(channel.path("address").asText(null))) {
                return channel;
            }
        }
        return null;
    }

    /** A node, or the one its {@code $ref} (a local JSON pointer) names. */
    private JsonNode resolve(JsonNode node) {
        while (node != null && node.has("$ref")) {
            node = doc.at(node.get("$ref").asText().substring(1));
            if (node.isMissingNode()) {
                throw new IllegalStateException("the AsyncAPI document has a dangling $ref");
            }
        }
        return node;
    }

    /** The validator of a schema node, its local refs made absolute so they resolve in the whole document. */
    private Schema schema(JsonNode node) {
        return schemas.computeIfAbsent(node, n -> registry.getSchema(
                SchemaLocation.of("urn:seckill:event-schema:" + inline.incrementAndGet()),
                SchemaRefs.absolute(n.deepCopy(), BASE)));
    }

    private static void fail(String topic, String why, String value) {
        String shown = value.length() > 500 ? value.substring(0, 500) + "..." : value;
        throw new AssertionError("record not described by the AsyncAPI document (" + DOCUMENT + "): topic " + topic
                + ": " + why + "; value: " + shown);
    }
}
