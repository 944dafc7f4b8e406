package dev.seckill.system;

import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml against the facts it shares with the native stack, from compose v2's own normalised form
 * ({@code docker compose config}, which needs no engine): its nodes are the stack's nodes (bin/stack.env's
 * topology), each built from docker/Dockerfile's target of its kind and started as that node by bin/seckill run; the
 * published ports are bin/stack.env's, on loopback; each container gets exactly the secrets bin/seckill's
 * secrets_of names for its kind, none with a default; the edge's knobs pass through with their defaults left to
 * bin/lib/edge.sh. What the stack does when it runs is ComposeStackIT's and ComposeClusterIT's.
 */
class ComposeConfigIT {

    private static final List<String> SECRETS = List.of("SECKILL_TOKEN_SECRET", "SECKILL_LINE_SECRET",
            "SECKILL_ADMIN_TOKEN", "SECKILL_REDIS_PASSWORD", "SECKILL_DB_PASSWORD");
    /** The single stack's nodes (bin/lib/components.sh: COMPONENTS). */
    private static final List<String> SINGLE = List.of("redis", "db", "kafka", "service", "writer", "edge");
    /** Where every node keeps its run directory in its container (docker/Dockerfile). */
    private static final String RUN_DIR = "/var/lib/seckill";
    /** The edge's wiring, set by the script per node and not a knob a user passes: its address, peers, binary, page. */
    private static final Set<String> EDGE_WIRING = Set.of("SECKILL_EDGE_LISTEN", "SECKILL_EDGE_UPSTREAM",
            "SECKILL_EDGE_NGINX", "SECKILL_EDGE_HTML_ROOT");

    private record Result(int exit, String output, String errors) {
    }

    @Test
    void theNodesOfBothTopologiesAreTheStacksEachBuiltForItsKindAndRunAsItself() throws Exception {
        Map<String, Map<String, Object>> single = services(config());
        assertEquals(new TreeSet<>(SINGLE), new TreeSet<>(single.keySet()), "the single stack's services");
        Map<String, Map<String, Object>> cluster = services(config("--profile", "cluster"));
        List<String> topology = Arrays.asList(stackEnv().getProperty("CLUSTER_TOPOLOGY").split(","));
        for (String node : topology) {
            // The cluster's database node runs as db (its peers' name for it) in the service cluster-db.
            String name = node.equals("db") ? "cluster-db" : node;
            Map<String, Object> s = cluster.get(name);
            assertNotNull(s, node + " missing from the cluster profile: " + cluster.keySet());
            assertEquals(List.of(node, "--cluster"), s.get("command"), name + " runs as node " + node);
            assertBuiltForItsKind(name, node, s);
        }
        assertEquals(List.of("db"), aliases(cluster.get("cluster-db")), "cluster-db is db on the network");
        for (String node : SINGLE) {
            Map<String, Object> s = single.get(node);
            assertEquals(List.of(node), s.get("command"), node + " runs as node " + node);
            assertBuiltForItsKind(node, node, s);
        }
    }

    private static void assertBuiltForItsKind(String name, String node, Map<String, Object> s) {
        Map<?, ?> build = (Map<?, ?>) s.get("build");
        assertNotNull(build, name + " is built from the repository");
        assertEquals("docker/Dockerfile", build.get("dockerfile"), name);
        assertEquals(node.replaceFirst("-[0-9]+$", "").replace("lb", "edge"), build.get("target"), name);
        assertEquals(true, s.get("init"), name + " runs under docker's init");
        assertNotNull(s.get("healthcheck"), name + " has a health check");
    }

    @Test
    void thePublishedPortsAreStackEnvsOnLoopbackAndNothingElseIsPublished() throws Exception {
        Properties env = stackEnv();
        Map<String, List<String>> single = published(services(config()));
        assertEquals(Map.of(
                "edge", List.of(port(env, "LOCAL_EDGE_PORT") + "->" + port(env, "LOCAL_EDGE_PORT")),
                "service", List.of(port(env, "LOCAL_ADMIN_PORT") + "->" + port(env, "LOCAL_ADMIN_PORT"))), single);
        Map<String, List<String>> cluster = published(profiled(services(config("--profile", "cluster"))));
        int admin = port(env, "CLUSTER_ADMIN_PORT");
        int lb = port(env, "CLUSTER_LB_PORT");
        // Each cluster service's admin listener, on the host at 8183 and 8283 (the single stack's 8083 stays free).
        assertEquals(Map.of(
                "lb", List.of(lb + "->" + lb),
                "lb-2", List.of((lb + 1) + "->" + (lb + 1)),
                "service-1", List.of("8183->" + admin),
                "service-2", List.of("8283->" + (admin + 1))), cluster);
    }

    @Test
    void eachContainerGetsExactlyTheSecretsItsNodeNeedsAndNoneHasADefault() throws Exception {
        Map<String, Set<String>> needs = secretsOf(Stack.get().home().resolve("bin/seckill"));
        Map<String, Map<String, Object>> all = new LinkedHashMap<>(services(config("--profile", "cluster")));
        all.putAll(services(config()));
        for (var e : all.entrySet()) {
            String kind = ((List<?>) e.getValue().get("command")).getFirst().toString().replaceFirst("-[0-9]+$", "");
            Set<String> given = env(e.getValue()).keySet().stream().filter(SECRETS::contains)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(new TreeSet<>(needs.getOrDefault(kind, Set.of())), given, e.getKey() + "'s secrets");
        }
        for (String secret : SECRETS) {
            Result r = config(secret);
            assertNotEquals(0, r.exit(), "compose starts without " + secret);
            assertTrue(r.errors().contains(secret) && r.errors().contains("docker/secrets.sh"),
                    "the refusal names " + secret + " and how to make it: " + r.errors());
        }
    }

    @Test
    void statefulNodesKeepTheirRunDirectoryInANamedVolume() throws Exception {
        Map<String, Map<String, Object>> all = new LinkedHashMap<>(services(config("--profile", "cluster")));
        all.putAll(services(config()));
        for (var e : all.entrySet()) {
            String kind = ((Map<?, ?>) e.getValue().get("build")).get("target").toString();
            List<?> volumes = (List<?>) e.getValue().get("volumes");
            if (!Set.of("redis", "db", "kafka").contains(kind)) {
                assertTrue(volumes == null || volumes.isEmpty(), e.getKey() + " is stateless: " + volumes);
                continue;
            }
            assertNotNull(volumes, e.getKey() + " keeps its data");
            Map<?, ?> v = (Map<?, ?>) volumes.getFirst();
            assertEquals("volume", v.get("type"), e.getKey());
            assertEquals(e.getKey(), v.get("source"), e.getKey() + "'s volume is named after it");
            assertEquals(RUN_DIR, v.get("target"), e.getKey());
        }
    }

    @Test
    void everyEdgeKnobPassesThroughAndItsDefaultStaysInEdgeSh() throws Exception {
        Path home = Stack.get().home();
        Set<String> knobs = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*edge_knob (SECKILL_EDGE_\\w+) ").matcher(
                Files.readString(home.resolve("bin/lib/edge.sh")));
        while (m.find()) {
            knobs.add(m.group(1));
        }
        knobs.removeAll(EDGE_WIRING);
        // The regex found edge.sh's knobs (the rates and bursts alone are eight), not a few stray words.
        assertTrue(knobs.size() > 15 && knobs.contains("SECKILL_EDGE_RATE"), "edge.sh's knobs: " + knobs);
        Map<String, String> edge = env(services(config()).get("edge"));
        for (String knob : knobs) {
            assertTrue(edge.containsKey(knob), knob + " does not reach the edge container");
            // Unset in the environment compose ran in: passed through as unset, so edge.sh's default applies.
            assertEquals("", edge.get(knob), knob + " has a default in compose.yaml besides edge.sh's");
        }
        // Nor does compose pass a name edge.sh no longer reads (a knob made a constant).
        for (String name : edge.keySet()) {
            assertTrue(!name.startsWith("SECKILL_EDGE_") || knobs.contains(name) || EDGE_WIRING.contains(name)
                    || name.equals("SECKILL_EDGE_TRUSTED_PROXIES"), name + " is passed to the edge but is no knob");
        }
        Result set = config(Map.of("SECKILL_EDGE_RATE", "55"));
        assertEquals("55", env(services(set).get("edge")).get("SECKILL_EDGE_RATE"), "a knob set reaches the edge");
    }

    /** bin/seckill's secrets_of: the kinds (one or several, `a | b)`) and the secrets each is given. */
    private static Map<String, Set<String>> secretsOf(Path script) throws IOException {
        String text = Files.readString(script);
        int start = text.indexOf("secrets_of() {");
        assertTrue(start >= 0, "secrets_of not found in " + script);
        String body = text.substring(start, text.indexOf("\n}", start));
        Map<String, Set<String>> out = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^\\s*([a-z |]+)\\) echo ([A-Z_ ]+) ;;").matcher(body);
        while (m.find()) {
            for (String kind : m.group(1).split("\\|")) {
                out.put(kind.trim(), Set.of(m.group(2).trim().split(" +")));
            }
        }
        assertTrue(out.keySet().containsAll(List.of("redis", "db", "writer", "edge", "service")), "secrets_of: " + out);
        return out;
    }

    private static Properties stackEnv() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(Stack.get().home().resolve("bin/stack.env"))) {
            p.load(r);
        }
        return p;
    }

    private static int port(Properties env, String key) {
        return Integer.parseInt(env.getProperty(key));
    }

    /** Each service's published ports as "host->container", all of them bound to the host's loopback. */
    private static Map<String, List<String>> published(Map<String, Map<String, Object>> services) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        services.forEach((name, s) -> {
            List<?> ports = (List<?>) s.get("ports");
            if (ports == null || ports.isEmpty()) {
                return;
            }
            List<String> list = new ArrayList<>();
            for (Object o : ports) {
                Map<?, ?> p = (Map<?, ?>) o;
                assertEquals("127.0.0.1", p.get("host_ip"), name + " publishes beyond loopback: " + p);
                list.add(p.get("published") + "->" + p.get("target"));
            }
            out.put(name, list);
        });
        return out;
    }

    /** Only the services of a profile (compose's config of a profile lists the default services too). */
    private static Map<String, Map<String, Object>> profiled(Map<String, Map<String, Object>> services) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>(services);
        out.values().removeIf(s -> s.get("profiles") == null);
        return out;
    }

    private static List<?> aliases(Map<String, Object> service) {
        Map<?, ?> networks = (Map<?, ?>) service.get("networks");
        return (List<?>) ((Map<?, ?>) networks.get("default")).get("aliases");
    }

    private static Map<String, String> env(Map<String, Object> service) {
        Map<String, String> out = new LinkedHashMap<>();
        if (service.get("environment") instanceof Map<?, ?> map) {
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

    private static Result config(String... options) throws IOException, InterruptedException {
        return run(null, Map.of(), options);
    }

    private static Result config(Map<String, String> extra) throws IOException, InterruptedException {
        return run(null, extra);
    }

    private static Result config(String withoutSecret) throws IOException, InterruptedException {
        return run(withoutSecret, Map.of());
    }

    /** `docker compose config` with every secret but {@code without} and the extra variables, nothing else. */
    private static Result run(String without, Map<String, String> extra, String... options)
            throws IOException, InterruptedException {
        Path home = Stack.get().home();
        Path out = Files.createTempFile("compose", ".yaml");
        Path err = Files.createTempFile("compose", ".err");
        // --env-file of an empty file: a developer's .env beside compose.yaml must not decide what the test sees.
        Path noEnv = Files.createTempFile("compose", ".env");
        List<String> cmd = new ArrayList<>(List.of("docker", "compose", "--env-file", noEnv.toString(), "-f",
                home.resolve("compose.yaml").toString()));
        cmd.addAll(List.of(options));
        cmd.add("config");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("SECKILL_"));
        SECRETS.stream().filter(s -> !s.equals(without)).forEach(s -> env.put(s, "value-of-" + s));
        env.putAll(extra);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "docker compose config hung");
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        Files.deleteIfExists(noEnv);
        assertFalse(r.errors().contains("panic"), r.errors());
        return r;
    }
}
