package dev.seckill.system.protection;

import dev.seckill.identity.TokenSigner;
import dev.seckill.system.edge.EdgeInstance;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.Stampede;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Total admission against the real service: an edge with the default admission knobs in front of the running
 * stack's service, first a load inside the service's ceiling (the normal band), then a flood from many addresses far
 * past it. Asserted: behaviour only (every answer 202 or the edge's 429, the service answered exactly the admitted
 * purchases, at most the rate bound of them). Reported, not asserted (two shared cores): the service's latency in
 * both, from its own timers and from the client's view of the admitted purchases, the in-flight limit the edge came
 * to (it follows the service's answer time), and how far past the ceiling the flood went.
 */
class AdmissionStackIT {

    private static final int NORMAL_CONNECTIONS = 8;
    private static final int FLOOD_CONNECTIONS = 1000;
    private static final Duration NORMAL = Duration.ofSeconds(5);
    private static final Duration FLOOD = Duration.ofSeconds(10);
    private static final Pattern ADMISSION = Pattern.compile("rate = (\\d+), in_flight = (\\d+)");
    private static final String PURCHASES = "seckill_purchases_total";
    private static final int USERS = 400_000;

    private final Stack stack = Stack.get();
    private final ProtectionStack probe = new ProtectionStack();
    private final HttpJson http = new HttpJson();

    @Test
    void aFloodFarPastTheCeilingReachesTheServiceOnlyAtTheAdmissionRate() throws IOException, InterruptedException {
        long sale = createSale();
        long firstUser = 8_000_000_000L + System.nanoTime() % 1_000_000_000L;
        // Empty knobs: bin/lib/edge.sh's defaults (upper bounds; the in-flight limit follows the service).
        try (EdgeInstance edge = EdgeInstance.start("admission-stack", Map.of(
                "SECKILL_EDGE_UPSTREAM", "127.0.0.1:" + stack.servicePort(),
                "SECKILL_EDGE_ADMIT_RATE", "", "SECKILL_EDGE_ADMIT_IN_FLIGHT", ""))) {
            Matcher knobs = ADMISSION.matcher(edge.config("conf.d/00-tunables.conf"));
            assertTrue(knobs.find(), "the admission settings in the rendered config");
            int rate = Integer.parseInt(knobs.group(1));
            int inFlight = Integer.parseInt(knobs.group(2));

            // Warm-up (JIT, pools), then the normal band, then the flood; each its own users (first clicks: 202).
            load(edge, sale, firstUser, NORMAL_CONNECTIONS, Duration.ofSeconds(2));
            Map<String, Double> before = serviceMetrics();
            Load normal = load(edge, sale, firstUser + USERS, NORMAL_CONNECTIONS, NORMAL);
            Map<String, Double> between = serviceMetrics();
            Load flood = load(edge, sale, firstUser + 2L * USERS, FLOOD_CONNECTIONS, FLOOD);
            Map<String, Double> after = serviceMetrics();

            report("normal band", normal, before, between);
            report("flood", flood, between, after);
            System.out.printf("admission: the flood offered %.1f x what the normal band got through; the edge's "
                    + "in-flight limit ended at %d (bounds: %d in flight, %d/s)%n", flood.rps() / normal.rps(),
                    EdgeCounters.value(http, edge, "seckill_edge_admission_in_flight_limit"), inFlight, rate);

            // 409: a user whose turn came round again (the load cycles through its users); the service answered it.
            assertTrue(Set.of(202, 409, 429).containsAll(flood.byStatus().keySet()), flood.byStatus().toString());
            long admitted = flood.count(202) + flood.count(409);
            assertTrue(admitted <= rate * (flood.seconds() + 1), admitted + " purchases admitted in "
                    + flood.seconds() + " s at " + rate + "/s");
            assertEquals(admitted, Math.round(sum(after, PURCHASES) - sum(between, PURCHASES)),
                    "the service answered the admitted purchases and nothing else");
        }
    }

    /** A closed-loop purchase load: each of {@code connections} clients buys as the next user as soon as answered. */
    private Load load(EdgeInstance edge, long sale, long firstUser, int connections, Duration length)
            throws InterruptedException {
        TokenSigner signer = new TokenSigner(stack.tokenSecret(), Duration.ofHours(1), Clock.systemUTC());
        List<Stampede.User> users = new ArrayList<>(USERS);
        for (long u = firstUser; u < firstUser + USERS; u++) {
            users.add(new Stampede.User(u, signer.mint(u)));
        }
        return new Load(Stampede.run(new Stampede.Plan("http://127.0.0.1:" + edge.port(), sale, users, 1, connections,
                length, 0)));
    }

    /** A load's answers by status, from its first click to its last answer. */
    private record Load(List<Stampede.Click> clicks) {

        Map<Integer, Long> byStatus() {
            return clicks.stream().collect(Collectors.groupingBy(Stampede.Click::status, TreeMap::new,
                    Collectors.counting()));
        }

        long count(int status) {
            return byStatus().getOrDefault(status, 0L);
        }

        double seconds() {
            return clicks.stream().mapToLong(c -> c.startNanos() + c.latencyNanos()).max().orElse(1) / 1e9;
        }

        double rps() {
            return clicks.size() / seconds();
        }

        /** The latency of the accepted purchases (202) at this percentile, in ms; 0 without one. */
        double acceptedMs(double percentile) {
            long[] ns = clicks.stream().filter(c -> c.status() == 202).mapToLong(Stampede.Click::latencyNanos)
                    .sorted().toArray();
            return ns.length == 0 ? 0 : ns[(int) Math.min(ns.length - 1, Math.ceil(percentile / 100 * ns.length) - 1)]
                    / 1e6;
        }
    }

    private static void report(String phase, Load r, Map<String, Double> before, Map<String, Double> after) {
        System.out.printf("admission, %s: %,d answers in %.1f s (%,.0f/s) %s; accepted (202): %,.0f/s, p50 %.1f ms, "
                        + "p99 %.1f ms; in the service: Redis script %.1f ms, Kafka send %.1f ms (means)%n", phase,
                r.clicks().size(), r.seconds(), r.rps(), r.byStatus(), r.count(202) / r.seconds(),
                r.acceptedMs(50), r.acceptedMs(99), meanMs(before, after, "seckill_redis_script_seconds"),
                meanMs(before, after, "seckill_kafka_send_seconds"));
    }

    private static double meanMs(Map<String, Double> before, Map<String, Double> after, String timer) {
        double calls = after.getOrDefault(timer + "_count", 0.0) - before.getOrDefault(timer + "_count", 0.0);
        double seconds = after.getOrDefault(timer + "_sum", 0.0) - before.getOrDefault(timer + "_sum", 0.0);
        return calls > 0 ? seconds * 1000 / calls : 0;
    }

    private static double sum(Map<String, Double> series, String metric) {
        return series.entrySet().stream().filter(e -> e.getKey().startsWith(metric + "{") || e.getKey().equals(metric))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    private Map<String, Double> serviceMetrics() {
        return probe.metrics();
    }

    private long createSale() {
        return new AdminSales(stack, http).sale("admission-").priceCents(1).stock(1000000).create();
    }
}
