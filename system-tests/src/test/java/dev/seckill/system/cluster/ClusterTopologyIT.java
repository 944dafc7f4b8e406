package dev.seckill.system.cluster;

import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.RedisCluster;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster topology bin/seckill starts. Every node healthy in {@code status --cluster}; a Redis Cluster
 * of three masters with a replica each, created once and rejoined from its nodes.conf; the orders topic replicated
 * three times; the load balancer spreading over both edges and answering for itself when none is up.
 */
@Tag("cluster")
class ClusterTopologyIT {

    private static final Pattern SALE_READS = Pattern.compile("seckill_edge_requests_total\\{route=\"sale_read\",status=\"200\"} ([0-9]+)");

    private final ClusterStack cluster = ClusterStack.get();
    private final HttpJson http = new HttpJson();

    @Test
    void statusShowsEveryNodeHealthyWithThreeRedisMastersAndThreeReplicas() {
        String status = cluster.status();
        for (String node : cluster.nodes()) {
            assertTrue(status.lines().anyMatch(l -> l.startsWith(node + " ") && l.endsWith(" healthy")),
                    node + " not healthy in:\n" + status);
        }
        assertEquals(3, status.lines().filter(l -> l.startsWith("redis-") && l.contains(" master healthy")).count(), status);
        assertEquals(3, status.lines().filter(l -> l.startsWith("redis-") && l.contains(" replica healthy")).count(), status);
    }

    @Test
    void aSecondUpKeepsTheRedisClusterItCreated() {
        RedisCluster redis = cluster.redis();
        Map<String, String> before = ids(redis);
        cluster.seckill(ClusterStack.NODE_OP, "up");
        assertEquals(before, ids(redis), "the same nodes with the same ids");
        assertEquals(3, redis.masters().size());
    }

    @Test
    void aKilledReplicaRejoinsFromItsNodesConfAsAReplicaOfTheSameMaster() {
        RedisCluster redis = cluster.redis();
        RedisCluster.Node replica = redis.view().stream().filter(RedisCluster.Node::replica).findFirst().orElseThrow();
        cluster.kill9(replica.name());
        cluster.up(replica.name());
        Await.until(Duration.ofSeconds(30), () -> redis.role(replica.name()).equals("slave"), replica.name() + " a replica");
        RedisCluster.Node back = redis.view(replica.name()).stream().filter(n -> n.name().equals(replica.name()))
                .findFirst().orElseThrow();
        assertEquals(replica.id(), back.id(), "the same node, not a new one");
        assertEquals(replica.masterId(), back.masterId(), "of the same master");
    }

    @Test
    void upNamesANodeThatIsNotHealthy() throws Exception {
        RedisCluster redis = cluster.redis();
        String replica = redis.view().stream().filter(RedisCluster.Node::replica).findFirst().orElseThrow().name();
        long pid = cluster.pid(replica);
        signal("STOP", pid);
        try {
            AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                    () -> cluster.up(replica));
            assertTrue(e.getMessage().contains("seckill: not healthy after up: " + replica
                    + " (bin/seckill status --cluster; bin/seckill logs --cluster " + replica + ")"), e.getMessage());
        } finally {
            signal("CONT", pid);
        }
        Await.until(Duration.ofSeconds(30), () -> redis.state(replica).equals("ok"), replica + " back in the cluster");
    }

    @Test
    void theOrdersTopicHasThreeInSyncCopiesOfEveryPartition() {
        try (ClusterOrdersTopic topic = new ClusterOrdersTopic(cluster)) {
            List<TopicPartitionInfo> partitions = topic.partitions();
            assertTrue(partitions.size() >= 6, partitions.size() + " partitions");
            for (TopicPartitionInfo p : partitions) {
                assertEquals(3, p.replicas().size(), "replicas of partition " + p.partition());
                Await.until(Duration.ofSeconds(60), () -> topic.inSync(p.partition()) == 3,
                        "three in-sync copies of partition " + p.partition());
            }
        }
    }

    @Test
    void theOrderEventsTopicIsReplicatedLikeTheOrdersTopic() {
        try (ClusterOrdersTopic topic = new ClusterOrdersTopic(cluster)) {
            List<TopicPartitionInfo> partitions = topic.partitions("seckill.order-events");
            assertEquals(topic.partitions().size(), partitions.size(), "partitioned like the orders topic");
            for (TopicPartitionInfo p : partitions) {
                assertEquals(3, p.replicas().size(), "replicas of partition " + p.partition());
            }
            assertEquals(2, topic.minInSync("seckill.order-events"), "two copies before an event is acknowledged");
            assertEquals(2, topic.minInSync(ClusterOrdersTopic.TOPIC));
        }
    }

    @Test
    void theLoadBalancerSpreadsReadsOverBothEdges() {
        List<String> edges = cluster.nodes("edge");
        Map<String, Long> before = edges.stream().collect(Collectors.toMap(e -> e, this::saleReads));
        for (int i = 0; i < 20; i++) {
            assertEquals(200, http.get(cluster.publicUrl() + "/api/sales").status());
        }
        for (String e : edges) {
            assertTrue(saleReads(e) > before.get(e), e + " got no read of 20 through the load balancer");
        }
    }

    @Test
    void theLoadBalancerAnswersUnavailableInJsonWhenNoEdgeIsUp() {
        List<String> edges = cluster.nodes("edge");
        List<String> args = new java.util.ArrayList<>(List.of("down"));
        args.addAll(edges);
        cluster.seckill(ClusterStack.NODE_OP, args.toArray(String[]::new));
        try {
            HttpJson.Response r = http.get(cluster.publicUrl() + "/api/sales", "X-Request-Id", "probe-13");
            assertEquals(503, r.status(), r.body());
            assertEquals("UNAVAILABLE", r.code());
            assertEquals("probe-13", r.json().path("requestId").asText());
            assertEquals("1", r.header("Retry-After"));
        } finally {
            cluster.up(edges.toArray(String[]::new));
        }
        // The health probes bring the edges back once they answer.
        Await.until(Duration.ofSeconds(30), () -> http.get(cluster.publicUrl() + "/api/sales").status() == 200,
                "the load balancer to use the edges again");
    }

    /**
     * An edge paused (every process of it stopped, as a hung machine): each load balancer's probes take it out of
     * rotation, so every read after that is answered by the other edge, none left waiting on the paused one; resumed,
     * it is back in rotation and serves reads again.
     */
    @Test
    void eachLoadBalancerRoutesAroundAPausedEdgeAndBackOnceItAnswers() throws Exception {
        List<String> lbs = cluster.nodes("lb");
        assertEquals(List.of("lb", "lb-2"), lbs, "two entry points");
        String paused = cluster.nodes("edge").getFirst();
        List<Long> pids = new java.util.ArrayList<>(List.of(cluster.pid(paused)));
        ProcessHandle.of(pids.getFirst()).orElseThrow().children().forEach(c -> pids.add(c.pid()));
        long before = saleReads(paused);
        String out = "127.0.0.1:" + cluster.port(paused) + " missed 2 health probes: out of rotation";
        String back = "127.0.0.1:" + cluster.port(paused) + " answers its health probes again: back in rotation";
        Map<String, Long> outs = lbs.stream().collect(Collectors.toMap(lb -> lb, lb -> lbSaid(lb, out)));
        Map<String, Long> backs = lbs.stream().collect(Collectors.toMap(lb -> lb, lb -> lbSaid(lb, back)));
        for (long pid : pids) {
            signal("STOP", pid);
        }
        try {
            for (String lb : lbs) {
                Await.until(Duration.ofSeconds(10), () -> lbSaid(lb, out) > outs.get(lb), lb + " to take " + paused
                        + " out");
                for (int i = 0; i < 20; i++) {
                    HttpJson.Response r = http.get(cluster.url(lb) + "/api/sales");
                    assertEquals(200, r.status(), "read " + i + " through " + lb + " with " + paused + " paused: "
                            + r.body());
                }
            }
        } finally {
            for (long pid : pids) {
                signal("CONT", pid);
            }
        }
        for (String lb : lbs) {
            Await.until(Duration.ofSeconds(10), () -> lbSaid(lb, back) > backs.get(lb), lb + " to take " + paused
                    + " back");
        }
        assertEquals(before, saleReads(paused), paused + " served no read while paused");
        Await.until(Duration.ofSeconds(10), () -> {
            http.get(cluster.url(lbs.getFirst()) + "/api/sales");
            return saleReads(paused) > before;
        }, paused + " to serve reads again");
    }

    /** How many lines of the lb's error log say {@code what}. */
    private long lbSaid(String lb, String what) {
        try (var lines = java.nio.file.Files.lines(cluster.runDir().resolve(lb + "/logs/error.log"))) {
            return lines.filter(l -> l.contains(what)).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private long saleReads(String edge) {
        Matcher m = SALE_READS.matcher(http.get(cluster.url(edge) + "/edge/metrics").body());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static Map<String, String> ids(RedisCluster redis) {
        return redis.view().stream().collect(Collectors.toMap(RedisCluster.Node::name, RedisCluster.Node::id));
    }

    private static void signal(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, p.waitFor(), "kill -" + signal + " " + pid);
    }
}
