package dev.seckill.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Checks an HTTP answer against the repository's OpenAPI document (the one the service serves at /openapi): the
 * operation found by method and path template must list the status (or the document's {@code x-any-request} must),
 * every required header must be there and every described header match its schema, the content type must be one the
 * response declares, a JSON body must match the response's schema (JSON Schema 2020-12, networknt), and its
 * {@code code} must be one of the response's {@code x-codes} (an empty body passes only where {@code x-body-optional}
 * says so). The path is matched as the service resolves it (dot segments and matrix parameters removed). A mismatch
 * fails the test with what differed, so the document and the code cannot drift apart. Every test client calls
 * {@link #check} on each answer it reads.
 */
public final class ApiContract {

    /** The document, relative to the repository root. */
    public static final String DOCUMENT = "helidon-app/src/main/resources/META-INF/openapi.yml";
    /** A system property; false skips every check (to see what a test does without the contract, never in CI). */
    public static final String ENABLED_PROPERTY = "seckill.contract.validate";

    /**
     * A header a test double (an upstream stub behind a test edge) puts on its scripted answers: the edge passes
     * them through, and they are the stub's, not the system's, so they are not checked.
     */
    public static final String EXEMPT_HEADER = "X-Test-Double";

    private static final String BASE = "https://seckill.dev/openapi.json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static volatile ApiContract shared;
    /** Stands in when the repository has no document (a checkout older than it): checks nothing. */

    private final JsonNode doc;
    private final SchemaRegistry registry;
    private final List<Template> templates = new ArrayList<>();
    private final Map<JsonNode, Schema> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger inline = new AtomicInteger();

    ApiContract(String yaml) {
        this.doc = SchemaRefs.read(YAMLMapper.builder().build(), yaml);
        String json = doc.toString();
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemas(Map.of(BASE, json)));
        for (String p : names(doc.path("paths"))) {
            templates.add(new Template(p, segments(p)));
        }
    }

    /** The contract of the repository this test runs in (read once). */
    public static ApiContract get() {
        ApiContract c = shared;
        if (c == null) {
            synchronized (ApiContract.class) {
                if (shared == null) {
                    Path file = Stack.findHome().resolve(DOCUMENT);
                    if (!Files.exists(file)) {
                        // A check that quietly stops checking is no check: without the document, tests fail.
                        throw new IllegalStateException("no OpenAPI document at " + file);
                    }
                    try {
                        shared = new ApiContract(Files.readString(file));
                    } catch (IOException e) {
                        throw new UncheckedIOException("failed to read the OpenAPI document " + file, e);
                    }
                }
                c = shared;
            }
        }
        return c;
    }

    /** The parsed document. */
    public JsonNode document() {
        return doc;
    }

    /**
     * Fails (AssertionError) unless the document describes this answer.
     *
     * @param target the request target or URL as sent (a query is ignored)
     * @param header a header's first value by name, any case; null when absent
     * @param body   the body as text ("" when none)
     */
    public static void check(String method, String target, int status, Function<String, String> header, String body) {
        String why = violation(method, target, status, header, body);
        if (why != null) {
            throw new AssertionError(why);
        }
    }

    /**
     * Why the document does not describe this answer, or null when it does (or when checking is off, the answer is
     * none, or a test double's): for a tool that records violations rather than failing on the first.
     */
    public static String violation(String method, String target, int status, Function<String, String> header,
                                   String body) {
        if (!Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true")) || status == 0
                || header.apply(EXEMPT_HEADER) != null) {
            return null;
        }
        return get().verify(method, target, status, header, body == null ? "" : body);
    }

    /** Why the document does not describe the answer, or null when it does. */
    String verify(String method, String target, int status, Function<String, String> header, String body) {
        String path = pathOf(target);
        String what = method + " " + path + " -> " + status;
        JsonNode op = operation(method, path);
        String key = Integer.toString(status);
        JsonNode own = op == null ? null : resolve(op.path("responses").get(key));
        JsonNode any = resolve(doc.path("x-any-request").path("responses").get(key));
        if (own == null && any == null) {
            return failure(what, op == null ? "no operation of the document serves this path and method, and "
                    + "x-any-request has no " + status : "status " + status + " is not in the operation's responses "
                    + names(op.path("responses")) + " nor in x-any-request", body);
        }
        String mismatch = own == null ? null : mismatch(method, own, header, body);
        if (own == null || mismatch != null) {
            // Any request may also get the answers of x-any-request (e.g. the public listener's 404 NOT_FOUND for
            // an admin path, whose operation lives on the admin listener).
            String other = any == null ? "x-any-request has no " + status : mismatch(method, any, header, body);
            if (other != null) {
                return failure(what, mismatch != null ? mismatch : other, body);
            }
        }
        return null;
    }

    /** Why the answer does not fit the response object, or null when it does. */
    private String mismatch(String method, JsonNode response, Function<String, String> header, String body) {
        String h = headerMismatch(response, header);
        return h != null ? h : contentMismatch(method, response, header, body);
    }

    private String headerMismatch(JsonNode response, Function<String, String> header) {
        for (Map.Entry<String, JsonNode> h : response.path("headers").properties()) {
            JsonNode spec = resolve(h.getValue());
            String value = header.apply(h.getKey());
            if (value == null) {
                if (spec.path("required").asBoolean(false)) {
                    return "required header " + h.getKey() + " is missing";
                }
                continue;
            }
            JsonNode schema = spec.get("schema");
            if (schema != null) {
                List<Error> errors = schema(schema).validate(TextNode.valueOf(value).toString(),
                        InputFormat.JSON);
                if (!errors.isEmpty()) {
                    return "header " + h.getKey() + ": " + value + " does not match the document: " + errors;
                }
            }
        }
        return null;
    }

    private String contentMismatch(String method, JsonNode response, Function<String, String> header, String body) {
        JsonNode content = response.get("content");
        if (content == null || content.isEmpty()) {
            return body.isEmpty() ? null : "the document declares no body for this answer";
        }
        if (method.equalsIgnoreCase("HEAD") || body.isEmpty() && response.path("x-body-optional").asBoolean(false)) {
            return null;
        }
        String type = header.apply("Content-Type");
        String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        JsonNode declared = content.get(media);
        if (declared == null) {
            declared = content.get(media.replaceFirst("/.*", "/*"));
        }
        if (declared == null) {
            declared = content.get("*/*");
        }
        if (declared == null) {
            return "Content-Type " + type + " is not one of " + names(content);
        }
        JsonNode schema = declared.get("schema");
        if (schema == null) {
            return null;
        }
        List<Error> errors = schema(schema).validate(body, InputFormat.JSON);
        if (!errors.isEmpty()) {
            return "the body does not match the document's schema: " + errors;
        }
        JsonNode codes = response.get("x-codes");
        String code = SchemaRefs.read(JSON, body).path("code").asText("");
        if (codes != null && !code.isEmpty() && !contains(codes, code)) {
            return "code " + code + " is not one of this answer's x-codes " + codes;
        }
        return null;
    }

    /** The operation for the method on the most specific template matching the path, or null. */
    private JsonNode operation(String method, String path) {
        List<String> segments = segments(path);
        Template best = null;
        int bestLiterals = -1;
        for (Template t : templates) {
            int literals = t.match(segments);
            if (literals > bestLiterals) {
                best = t;
                bestLiterals = literals;
            }
        }
        if (best == null) {
            return null;
        }
        JsonNode item = doc.path("paths").path(best.path());
        String m = method.toLowerCase(Locale.ROOT);
        JsonNode op = item.get(m);
        // nginx and Helidon answer HEAD like GET, without the body.
        return op == null && m.equals("head") ? item.get("get") : op;
    }

    /** A node, or the one its {@code $ref} (a local JSON pointer) names. */
    private JsonNode resolve(JsonNode node) {
        while (node != null && node.has("$ref")) {
            node = doc.at(node.get("$ref").asText().substring(1));
            if (node.isMissingNode()) {
                throw new IllegalStateException("the OpenAPI document has a dangling $ref");
            }
        }
        return node;
    }

    /**
     * The validator of a schema node of the document. Its local refs ({@code #/components/...}) are made absolute,
     * so that they resolve in the whole document wherever the node sits.
     */
    private Schema schema(JsonNode node) {
        return schemas.computeIfAbsent(node, n -> registry.getSchema(
                SchemaLocation.of("urn:seckill:schema:" + inline.incrementAndGet()), SchemaRefs.absolute(n.deepCopy(), BASE)));
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode n : array) {
            if (n.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** The path of a target or URL, without query or fragment. */
    static String pathOf(String target) {
        String t = target;
        int scheme = t.indexOf("://");
        if (scheme > 0 && scheme < 8) {
            int slash = t.indexOf('/', scheme + 3);
            t = slash < 0 ? "/" : t.substring(slash);
        }
        int end = t.length();
        for (char c : new char[] {'?', '#'}) {
            int i = t.indexOf(c);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        return withoutDotSegments(t.substring(0, end));
    }

    /**
     * The path as the service resolves it: matrix parameters ({@code ;...}) cut from each segment, "." segments
     * dropped, ".." removing the one before (RFC 3986, 5.2.4). The edge refuses all of these with 400 instead.
     */
    static String withoutDotSegments(String path) {
        List<String> out = new ArrayList<>();
        String[] parts = path.split("/", -1);
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].split(";", 2)[0];
            boolean last = i == parts.length - 1;
            if (p.equals(".") || p.equals("..")) {
                if (p.equals("..") && !out.isEmpty()) {
                    out.removeLast();
                }
                if (last) {
                    out.add("");
                }
            } else {
                out.add(p);
            }
        }
        return path.startsWith("/") ? "/" + String.join("/", out) : path;
    }

    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>(List.of(path.split("/", -1)));
        if (!out.isEmpty() && out.getFirst().isEmpty()) {
            out.removeFirst();
        }
        if (out.size() == 1 && out.getFirst().isEmpty()) {
            out.clear(); // "/"
        }
        return out;
    }

    private static String failure(String what, String why, String body) {
        String shown = body.length() > 500 ? body.substring(0, 500) + "..." : body;
        return "answer not described by the OpenAPI document (" + DOCUMENT + "): " + what + ": " + why + "; body: "
                + shown;
    }

    /** A path template of the document and its segments ({@code {name}} matches any one non-empty segment). */
    private record Template(String path, List<String> parts) {

        /** The number of literal segments when the path matches, else -1. */
        int match(List<String> segments) {
            if (segments.size() != parts.size()) {
                return -1;
            }
            int literals = 0;
            for (int i = 0; i < parts.size(); i++) {
                String p = parts.get(i);
                String s = segments.get(i);
                if (p.startsWith("{") && p.endsWith("}")) {
                    if (s.isEmpty()) {
                        return -1;
                    }
                } else if (p.equals(s)) {
                    literals++;
                } else {
                    return -1;
                }
            }
            return literals;
        }
    }

    /** An object node's property names, in order. */
    private static List<String> names(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
