package dev.seckill.system;

import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml cannot run here (no Docker engine), so this checks what can be checked without one: Debian's
 * docker-compose parses and normalises it (`docker-compose config`; Docker's compose v2 plugin is not in Debian 12),
 * the Java services and the edge are built from the repository's Dockerfiles (no jars or checkout mounted from the
 * host), every health check runs a program its image contains, data lives in named volumes, every edge knob and
 * every setting the services need reaches them, and there are no default secrets.
 */
class ComposeConfigIT {

    private static final List<String> SECRETS = List.of("SECKILL_TOKEN_SECRET", "SECKILL_LINE_SECRET",
            "SECKILL_ADMIN_TOKEN", "SECKILL_REDIS_PASSWORD", "SECKILL_DB_PASSWORD", "SECKILL_DB_ROOT_PASSWORD");

    private static final List<String> SINGLE = List.of("redis", "mysql", "kafka", "kafka-topics", "service", "writer",
            "edge");
    private static final List<String> CLUSTER = List.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5",
            "redis-6", "redis-cluster", "kafka-1", "kafka-2", "kafka-3", "kafka-topics-cluster", "service-1",
            "service-2", "writer-1", "writer-2", "edge-1", "edge-2", "lb");
    /** Run once, then done: the only services without a health check. */
    private static final List<String> ONE_SHOT = List.of("kafka-topics", "redis-cluster", "kafka-topics-cluster");

    /** Built from the repository, by kind: the Dockerfile and its target (null: the last stage). */
    private static final Map<String, List<String>> BUILT = Map.of(
            "service", List.of("docker/java.Dockerfile", "service"),
            "writer", List.of("docker/java.Dockerfile", "writer"),
            "edge", List.of("docker/edge.Dockerfile", "edge"),
            "lb", List.of("docker/edge.Dockerfile", "edge"));

    /**
     * Programs each outside image is known to contain, from the images' own Dockerfiles. What matters most is what
     * they lack: the Temurin JRE image (Ubuntu) and OpenResty's bookworm image (which purges wget after use) have no
     * curl and no wget, which is why health checks never passed.
     */
    private static final Map<String, Set<String>> IMAGE_PROGRAMS = Map.of(
            "eclipse-temurin:", Set.of("java", "bash", "sh"),
            "openresty/openresty:", Set.of("openresty", "nginx", "envsubst", "bash", "sh"),
            "redis:", Set.of("redis-cli", "redis-server", "sh", "grep"),
            "mysql:", Set.of("mysqladmin", "mysql", "sh"),
            "apache/kafka:", Set.of("/opt/kafka/bin/kafka-broker-api-versions.sh", "/opt/kafka/bin/kafka-topics.sh",
                    "sh"));
    /** Where a bare program name is looked up in the images (the part of PATH a COPY may put one in). */
    private static final List<String> PATH = List.of("/usr/local/bin/", "/usr/bin/", "/bin/");

    private record Result(int exit, String output, String errors) {
    }

    /** A configuration key, the environment names Helidon reads it from, and its default in application.yaml. */
    private record Key(String key, Set<String> names, String fallback) {
    }

    @Test
    void composeFileParsesWithAllComponentsHealthChecksAndStartOrder() throws Exception {
        Map<String, Map<String, Object>> services = services(config(true));
        for (String service : SINGLE) {
            Map<String, Object> s = services.get(service);
            assertNotNull(s, "service " + service + " missing: " + services.keySet());
            assertFalse(s.containsKey("profiles"), service + " is in a profile");
            assertEquals(!ONE_SHOT.contains(service), s.containsKey("healthcheck"), "health check of " + service);
        }
        assertEquals("service_healthy", condition(services.get("edge"), "service"));
        assertEquals("service_healthy", condition(services.get("writer"), "service"));
        assertEquals("service_completed_successfully", condition(services.get("service"), "kafka-topics"));
        assertTrue(image(services.get("mysql")).startsWith("mysql:8"));
        assertTrue(image(services.get("kafka")).startsWith("apache/kafka:"));
    }

    @Test
    void everySecretReachesItsServicesAndEveryPublishedPortIsOnLoopback() throws Exception {
        Result r = config(true);
        for (String secret : SECRETS) {
            assertTrue(r.output().contains(": value-of-" + secret + "\n"), secret + " not passed:\n" + r.output());
        }
        Map<String, Map<String, Object>> services = services(r);
        assertEquals("8083", env(services.get("service")).get("ADMIN_PORT"), "the admin listener is configured");
        assertEquals("false", env(services.get("service")).get("SECKILL_DEMO_LOGIN"), "demo sign-in off by default");
        r.output().lines().filter(l -> l.matches("\\s+- .*:[0-9]+/tcp")).forEach(port ->
                assertTrue(port.trim().startsWith("- 127.0.0.1:"), "published beyond loopback: " + port));
        assertFalse(r.output().contains("-pseckill") || r.output().contains("change-me"), "a default secret");
    }

    /** The cluster topology as the profile "cluster", the same fleet as bin/seckill up --cluster. */
    @Test
    void theClusterProfileRendersTheWholeFleetBehindTheLoadBalancer() throws Exception {
        Map<String, Map<String, Object>> services = services(config(true, "--profile", "cluster"));
        for (String service : CLUSTER) {
            Map<String, Object> s = services.get(service);
            assertNotNull(s, "service " + service + " missing: " + services.keySet());
            assertEquals(List.of("cluster"), s.get("profiles"), service + " is not in the cluster profile");
            assertEquals(!ONE_SHOT.contains(service), s.containsKey("healthcheck"), "health check of " + service);
        }
        assertEquals("1", env(services.get("service-1")).get("SECKILL_NODE"), "distinct order-id nodes");
        assertEquals("2", env(services.get("service-2")).get("SECKILL_NODE"), "distinct order-id nodes");
        for (String service : List.of("service-1", "service-2")) {
            Map<String, String> env = env(services.get(service));
            assertEquals("1", env.get("REDIS_REPLICA_ACKS"), service);
            assertEquals(6, env.get("REDIS_NODES").split("redis://redis-", -1).length - 1, "six Redis seeds");
            assertEquals("kafka-1:9092,kafka-2:9092,kafka-3:9092", env.get("KAFKA_BOOTSTRAP"), service);
            // Each edge's internal listener (docker/edge-internal.conf), which takes the service's containers.
            assertEquals("http://edge-1:8090,http://edge-2:8090", env.get("SECKILL_EDGE_ADMIN"), service);
        }
        assertEquals(List.of("127.0.0.1:8080:8080/tcp"), services.get("lb").get("ports"), "the lb has the public port");
        for (String edge : List.of("edge-1", "edge-2")) {
            assertFalse(services.get(edge).containsKey("ports"), edge + " is reachable only through the lb");
            assertEquals("service-1:8081,service-2:8081", env(services.get(edge)).get("SECKILL_EDGE_UPSTREAM"), edge);
        }
        assertTrue(String.valueOf(services.get("kafka-topics-cluster").get("command"))
                .contains("--replication-factor 3"));
    }

    /**
     * The service cleared flags on the edge's public listener, whose /edge/* answers loopback callers only,
     * so every restock's clear call failed. It must name an edge's internal listener, the one the edge image adds.
     */
    @Test
    void theServicesClearFlagsOnTheEdgesInternalListener() throws Exception {
        Path home = Stack.get().home();
        Matcher listen = Pattern.compile("(?m)^\\s*listen (\\d+);").matcher(
                Files.readString(home.resolve("docker/edge-internal.conf")));
        assertTrue(listen.find(), "the internal listener's port");
        String port = listen.group(1);
        assertTrue(Dockerfile.read(home.resolve("docker/edge.Dockerfile")).chain("edge").stream()
                .flatMap(st -> st.copied().stream())
                .anyMatch(c -> c.source().equals("docker/edge-internal.conf")
                        && c.dest().startsWith("/seckill/openresty/conf.d/")), "the edge image has the listener");
        Map<String, Map<String, Object>> services = services(config(true, "--profile", "cluster"));
        for (var e : services.entrySet()) {
            if (!kind(e.getKey()).equals("service")) {
                continue;
            }
            String admin = env(e.getValue()).get("SECKILL_EDGE_ADMIN");
            assertNotNull(admin, e.getKey() + " clears no edge's flags");
            for (String url : admin.split(",")) {
                Matcher m = Pattern.compile("http://([a-z0-9-]+):(\\d+)").matcher(url);
                assertTrue(m.matches(), url);
                assertEquals("edge", kind(m.group(1)), e.getKey() + " clears flags on " + url + ", not an edge");
                assertTrue(services.containsKey(m.group(1)), url + " names no service");
                assertEquals(port, m.group(2), e.getKey() + " calls " + url + ", not the internal listener");
                String published = String.valueOf(services.get(m.group(1)).get("ports"));
                assertFalse(published.contains(":" + port + "/"), "the internal listener is published: " + published);
            }
        }
    }

    @Test
    void composeRefusesToStartWithoutItsSecrets() throws Exception {
        Result r = config(false);
        String said = r.output() + r.errors();
        assertNotEquals(0, r.exit(), said);
        assertTrue(SECRETS.stream().anyMatch(s -> said.contains("set " + s)), "names a missing secret: " + said);
    }

    /** No jars built on the host, no checkout mounted; data in named volumes. */
    @Test
    void theServicesAndTheEdgeAreBuiltFromTheRepositoryAndDataLivesInNamedVolumes() throws Exception {
        Path home = Stack.get().home();
        Map<String, Object> all = new Yaml().load(config(true, "--profile", "cluster").output());
        Set<?> named = all.get("volumes") instanceof Map<?, ?> v ? v.keySet() : Set.of();
        Map<String, String> dataPaths = Map.of("redis", "/data", "mysql", "/var/lib/mysql",
                "kafka", "/var/lib/kafka/data");
        for (var e : services(all).entrySet()) {
            String kind = kind(e.getKey());
            if (BUILT.containsKey(kind)) {
                Map<?, ?> build = (Map<?, ?>) e.getValue().get("build");
                assertNotNull(build, e.getKey() + " is not built from the repository");
                assertEquals(home.toString(), build.get("context"), e.getKey() + ": the repository is the context");
                assertEquals(BUILT.get(kind).get(0), build.get("dockerfile"), e.getKey());
                Dockerfile file = Dockerfile.read(home.resolve(BUILT.get(kind).get(0)));
                String target = build.get("target") != null ? (String) build.get("target") : file.lastStage();
                assertEquals(BUILT.get(kind).get(1), target, e.getKey() + " builds the wrong stage");
            }
            // docker-compose 1.29 prints "source:target:mode"; compose v2 a map with type, source and target.
            Map<String, String> mounts = new LinkedHashMap<>();
            for (Object volume : (List<?>) e.getValue().getOrDefault("volumes", List.of())) {
                if (volume instanceof Map<?, ?> v) {
                    assertEquals("volume", v.get("type"), e.getKey() + " mounts from the host: " + v);
                    mounts.put(String.valueOf(v.get("target")), String.valueOf(v.get("source")));
                } else {
                    String[] parts = volume.toString().split(":");
                    mounts.put(parts[1], parts[0]);
                }
            }
            mounts.forEach((target, source) -> assertTrue(named.contains(source),
                    e.getKey() + " mounts " + source + ", not a named volume, at " + target));
            String dataPath = dataPaths.get(kind);
            if (dataPath != null && !ONE_SHOT.contains(e.getKey())) {
                assertTrue(mounts.containsKey(dataPath), e.getKey() + " keeps its data in no volume: " + mounts);
            }
        }
        assertTrue(named.containsAll(List.of("redis-data", "mysql-data", "kafka-data")), "named volumes: " + named);
        // Multi-stage: Maven (with its JDK) only where the jars are built, a JRE where they run.
        Dockerfile java = Dockerfile.read(home.resolve("docker/java.Dockerfile"));
        assertTrue(java.stages().get("build").base().startsWith("maven:"), "built with Maven");
        for (String target : List.of("service", "writer")) {
            assertTrue(java.baseImage(target).matches("eclipse-temurin:[0-9][^:]*-jre"), target + " runs on a JRE");
        }
        assertTrue(Dockerfile.read(home.resolve("docker/edge.Dockerfile")).baseImage("edge")
                .startsWith("openresty/openresty:"), "the edge is OpenResty");
    }

    /** The health checks ran curl, which neither the JRE image nor the OpenResty image has. */
    @Test
    void everyHealthCheckRunsAProgramItsImageContains() throws Exception {
        Path home = Stack.get().home();
        Map<String, Map<String, Object>> services = services(config(true, "--profile", "cluster"));
        for (var e : services.entrySet()) {
            Map<?, ?> health = (Map<?, ?>) e.getValue().get("healthcheck");
            if (health == null) {
                continue;
            }
            Set<String> contents = programsOf(home, e.getKey(), e.getValue());
            for (String program : programs((List<?>) health.get("test"))) {
                assertTrue(contents.contains(program), e.getKey() + "'s health check runs " + program
                        + ", which its image lacks (it has " + contents + ")");
            }
        }
        // The probe the built images ship is a bash script: bash must be in both bases.
        String probe = Files.readString(home.resolve("docker/http-ok.sh"));
        assertTrue(probe.startsWith("#!/bin/bash\n"), "the probe's interpreter");
        for (String base : List.of("eclipse-temurin:", "openresty/openresty:")) {
            assertTrue(IMAGE_PROGRAMS.get(base).contains("bash"), base);
        }
    }

    /**
     * Every setting the code reads without a usable default in a container reaches it: the services' listen
     * addresses, peers and credentials (application.yaml defaults them to loopback or nothing), and every edge knob
     * of bin/lib/edge.sh, passed through as ${KNOB:-default} with edge.sh's own default.
     */
    @Test
    void everyVariableTheCodeReadsIsSetOrDefaulted() throws Exception {
        Path home = Stack.get().home();
        Map<String, Map<String, Object>> services = services(config(true, "--profile", "cluster"));
        List<Key> serviceKeys = keys(home.resolve("helidon-app/src/main/resources/application.yaml"));
        List<Key> writerKeys = keys(home.resolve("kafka-consumer/src/main/resources/application.yaml"));
        // seckill.node is read (Wiring) but not in application.yaml: unset, the node is drawn from a Redis counter.
        serviceKeys.add(new Key("seckill.node", Set.of("SECKILL_NODE"), ""));
        for (var e : services.entrySet()) {
            List<Key> keys = switch (kind(e.getKey())) {
                case "service" -> serviceKeys;
                case "writer" -> writerKeys;
                default -> null;
            };
            if (keys == null) {
                continue;
            }
            Map<String, String> env = env(e.getValue());
            for (String name : env.keySet()) {
                assertTrue(name.equals("JDK_JAVA_OPTIONS") || keys.stream().anyMatch(k -> k.names().contains(name)),
                        e.getKey() + " sets " + name + ", which no configuration key reads");
            }
            // Loopback addresses and credentials have no default that works in a container; in cluster mode the
            // seeds (redis.nodes) replace redis.address.
            boolean cluster = env.containsKey("REDIS_NODES");
            for (Key k : keys) {
                boolean needed = k.fallback().contains("127.0.0.1")
                        || k.key().matches(".*(password|secret|admin\\.token)$");
                if (needed && !(cluster && k.key().equals("redis.address"))) {
                    assertTrue(k.names().stream().anyMatch(n -> !env.getOrDefault(n, "").isEmpty()), e.getKey()
                            + " needs " + k.key() + " (" + k.names() + "): '" + k.fallback() + "' does not work here");
                }
            }
        }

        String raw = Files.readString(home.resolve("compose.yaml"));
        Map<String, String> knobs = knobs(home.resolve("bin/lib/edge.sh"), "SECKILL_EDGE_");
        // Container wiring, set by the image or per edge rather than passed through.
        Dockerfile edgeImage = Dockerfile.read(home.resolve("docker/edge.Dockerfile"));
        Map<String, String> imageEnv = edgeImage.stages().get("edge").env();
        Set<String> wiring = Set.of("SECKILL_EDGE_LISTEN", "SECKILL_EDGE_NGINX", "SECKILL_EDGE_UPSTREAM",
                "SECKILL_EDGE_HTML_ROOT");
        for (var knob : knobs.entrySet()) {
            String name = knob.getKey();
            if (wiring.contains(name)) {
                continue;
            }
            String expected = name.equals("SECKILL_EDGE_NOFILE") ? "65536" : knob.getValue();
            assertTrue(raw.contains(name + ": ${" + name + ":-" + expected + "}"),
                    name + " is not passed through with edge.sh's default " + expected);
        }
        // The cluster's lb: its knobs likewise (bin/lib/lb.sh), but for its wiring.
        Map<String, String> lbKnobs = knobs(home.resolve("bin/lib/lb.sh"), "SECKILL_LB_");
        Map<String, String> lbEnv = env(services.get("lb"));
        for (var knob : lbKnobs.entrySet()) {
            String name = knob.getKey();
            if (Set.of("SECKILL_LB_LISTEN", "SECKILL_LB_NGINX", "SECKILL_LB_UPSTREAM").contains(name)) {
                assertTrue(lbEnv.containsKey(name), "the lb lacks " + name);
            } else {
                assertTrue(raw.contains(name + ": ${" + name + ":-" + knob.getValue() + "}"),
                        name + " is not passed through with lb.sh's default " + knob.getValue());
            }
        }
        assertTrue(raw.contains("SECKILL_LB_TRUSTED_PROXIES: ${SECKILL_LB_TRUSTED_PROXIES:-}"), "the lb's proxies");
        assertEquals("*", imageEnv.get("SECKILL_EDGE_LISTEN"));
        assertEquals("openresty", imageEnv.get("SECKILL_EDGE_NGINX"));
        assertEquals("8080", imageEnv.get("SECKILL_EDGE_PORT"));
        for (String edge : List.of("edge", "edge-1", "edge-2")) {
            Map<String, String> env = env(services.get(edge));
            for (String name : knobs.keySet()) {
                assertTrue(wiring.contains(name) || env.containsKey(name), edge + " lacks " + name);
            }
            assertTrue(env.containsKey("SECKILL_EDGE_UPSTREAM"), edge + " has no upstream");
            assertTrue(env.containsKey("SECKILL_EDGE_TRUSTED_PROXIES"), edge + " has no trusted proxies setting");
            // The NOFILE default must fit the limit the container gets (edge.sh refuses a lower one at start).
            Map<?, ?> nofile = (Map<?, ?>) ((Map<?, ?>) services.get(edge).get("ulimits")).get("nofile");
            assertTrue(Long.parseLong(String.valueOf(nofile.get("hard")))
                    >= Long.parseLong(env.get("SECKILL_EDGE_NOFILE")), edge + ": NOFILE above the container's limit");
        }
    }

    // ---------------------------------------------------------------- reading the files

    /** Programs a health check runs: the CMD's program, or each command of a CMD-SHELL line. */
    private static List<String> programs(List<?> test) {
        List<String> out = new ArrayList<>();
        if (test.getFirst().equals("CMD")) {
            out.add((String) test.get(1));
        } else {
            assertEquals("CMD-SHELL", test.getFirst(), "health check form " + test);
            for (String command : ((String) test.get(1)).split("\\|\\||&&|[|;]")) {
                // Skip VAR=value prefixes; the program is the first other word.
                command.strip().lines().findFirst().ifPresent(c -> {
                    for (String word : c.split("\\s+")) {
                        if (!word.matches("\\w+=.*")) {
                            out.add(word);
                            break;
                        }
                    }
                });
            }
        }
        return out;
    }

    /** The programs in a service's image: its base image's, plus what its Dockerfile copies onto the PATH. */
    private static Set<String> programsOf(Path home, String name, Map<String, Object> service) throws IOException {
        Set<String> out = new TreeSet<>();
        String base;
        List<Dockerfile.Copy> copied = new ArrayList<>();
        if (service.get("build") instanceof Map<?, ?> build) {
            Dockerfile file = Dockerfile.read(home.resolve(String.valueOf(build.get("dockerfile"))));
            String target = build.get("target") != null ? String.valueOf(build.get("target")) : file.lastStage();
            base = file.baseImage(target);
            file.chain(target).forEach(s -> copied.addAll(s.copied()));
        } else {
            base = image(service);
        }
        IMAGE_PROGRAMS.forEach((prefix, programs) -> {
            if (base.startsWith(prefix)) {
                out.addAll(programs);
            }
        });
        assertFalse(out.isEmpty(), name + ": nothing known of " + base);
        for (Dockerfile.Copy c : copied) {
            out.add(c.dest());
            PATH.stream().filter(dir -> c.dest().startsWith(dir) && c.dest().indexOf('/', dir.length()) < 0)
                    .forEach(dir -> out.add(c.dest().substring(dir.length())));
        }
        return out;
    }

    /**
     * application.yaml's keys as the environment names that override them, with their defaults. Helidon reads a key
     * a.b-c from A_B_dash_C and also from A_B_C (checked with Helidon 4.5's environment source), so both count.
     */
    private static List<Key> keys(Path yaml) throws IOException {
        List<Key> out = new ArrayList<>();
        flatten("", new Yaml().load(Files.readString(yaml)), out);
        return out;
    }

    private static void flatten(String prefix, Object node, List<Key> out) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? k.toString() : prefix + "." + k, v, out));
        } else {
            String upper = prefix.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
            out.add(new Key(prefix, Set.copyOf(List.of(upper.replace("-", "_dash_"), upper.replace('-', '_'))),
                    node == null ? "" : node.toString()));
        }
    }

    /** A script's knobs named PREFIX... and their defaults, from its `edge_knob NAME DEFAULT ...` lines. */
    private static Map<String, String> knobs(Path script, String prefix) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\s*edge_knob (" + prefix + "\\w+) (\"[^\"]*\"|\\S+)")
                .matcher(Files.readString(script));
        while (m.find()) {
            out.put(m.group(1), m.group(2).replace("\"", ""));
        }
        assertTrue(out.size() > 5, script + "'s knobs not found: " + out);
        return out;
    }

    private static String kind(String service) {
        return service.replaceFirst("-[0-9]+$", "");
    }

    private static String image(Map<String, Object> service) {
        return String.valueOf(service.get("image"));
    }

    private static String condition(Map<String, Object> service, String dependency) {
        return String.valueOf(((Map<?, ?>) ((Map<?, ?>) service.get("depends_on")).get(dependency)).get("condition"));
    }

    private static Map<String, String> env(Map<String, Object> service) {
        Map<String, String> out = new LinkedHashMap<>();
        Object env = service.get("environment");
        if (env instanceof Map<?, ?> map) {
            map.forEach((k, v) -> out.put(k.toString(), v == null ? "" : v.toString()));
        }
        return out;
    }

    private static Map<String, Map<String, Object>> services(Result r) {
        assertEquals(0, r.exit(), r.output() + r.errors());
        return services(new Yaml().<Map<String, Object>>load(r.output()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services(Map<String, Object> config) {
        return (Map<String, Map<String, Object>>) config.get("services");
    }

    private static Result config(boolean withSecrets, String... options) throws IOException, InterruptedException {
        Path home = Stack.get().home();
        Path out = Files.createTempFile("compose", ".yaml");
        Path err = Files.createTempFile("compose", ".err");
        List<String> cmd = new ArrayList<>(List.of("docker-compose", "-f", home.resolve("compose.yaml").toString()));
        cmd.addAll(List.of(options));
        cmd.add("config");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> env = pb.environment();
        // Whatever the test's own environment holds, each case decides which secrets compose sees, and the edge
        // and lb knobs and the demo sign-in take their defaults.
        env.keySet().removeIf(k -> SECRETS.contains(k) || k.startsWith("SECKILL_EDGE_") || k.startsWith("SECKILL_LB_")
                || k.equals("SECKILL_DEMO_LOGIN"));
        if (withSecrets) {
            SECRETS.forEach(s -> env.put(s, "value-of-" + s));
        }
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "docker-compose config hung");
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }
}
