package dev.seckill.system.cluster;

import dev.seckill.redis.Keys;
import dev.seckill.system.reliability.FaultScenario;
import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ClusterStack;
import dev.seckill.testkit.RedisCluster;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The death of any one node of the cluster, each during a stampede through the load balancer, each ending
 * with reconcile and the full invariant check read from MySQL and from every Redis master directly: oversold = 0,
 * duplicates = 0, lost = 0 (every 202 has its row), conservation. Each prints its counts (accepted, refused, 503) and
 * what the failure cost. A node is killed with SIGKILL (with the processes it started) and brought back with
 * {@code bin/seckill up --cluster <node>}.
 */
@Tag("cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultIT {

    private static final Duration FAILOVER = Duration.ofSeconds(60);
    private static final Duration SERVED = Duration.ofSeconds(90);

    private final ClusterStack cluster = ClusterStack.get();
    private final FaultScenario.Site site = ClusterSite.of(cluster);
    private final ServiceProbe probe = new ServiceProbe(cluster);

    /**
     * Its replica takes over the slot. A 202 waits for one replica's copy, and the promoted master has none until the
     * killed node is back, so that shard refuses reservations (503, the unit given back) from the kill until the old
     * master is attached to the promoted one as a replica, and each service's Redis breaker (opened by the dead
     * master's timeouts) has closed again: that is the failover window, and it lasts as long as the operator's
     * supervisor takes to restart the node plus at most the breaker's wait. Here the node is restarted the moment the
     * promotion is seen ({@code bin/seckill up --cluster redis-N}, as a supervisor would); the window is measured and
     * printed. No purchase sent after it answers 503, and a second crowd on the same shard buys normally.
     */
    @Test
    @Order(1)
    void redisMasterOfTheSaleKilled() throws Exception {
        RedisCluster redis = cluster.redis();
        FaultScenario s = FaultScenario.begin("Redis master SIGKILL", site, (first, other) ->
                redis.masterOf(Keys.stock(first)).equals(redis.masterOf(Keys.stock(other))));
        String key = Keys.stock(s.first().saleId);
        String master = redis.masterOf(key).orElseThrow();
        SaleRun second = s.second();
        long[] at = new long[4];
        String[] promoted = new String[1];
        s.inject(() -> {
            cluster.kill9(master);
            at[0] = System.nanoTime();
        }, () -> {
            promoted[0] = Await.value(FAILOVER, () -> redis.masterOf(key).filter(m -> !m.equals(master)).orElse(null),
                    "a replica of " + master + " to be promoted");
            at[1] = System.nanoTime();
        }, () -> at[2] = restartUntilAttached(master, promoted[0]));
        assertEquals("slave", redis.role(master), master + " rejoined as a replica");
        // Both sales: the first one's breaker was opened by the dead master's timeouts and may stay open for its wait
        // after the shard is back, while the second sale's, never called before, is closed from the start.
        probe.awaitServed(s.first(), SERVED);
        probe.awaitServed(second, SERVED);
        at[3] = System.nanoTime();
        second.start();
        s.finishAndCheck();
        long inWindow = s.first().count(503) - s.first().countSince(at[3], 503);
        System.out.printf("cluster fault [Redis master SIGKILL]: %s killed; %s promoted after %d ms; %s attached to it "
                        + "as a replica %d ms after the kill; every service served %d purchases in a row in both sales "
                        + "(the end of the shard's 503 window) %d ms after the kill; 503 in the window %d, after the attach %d; "
                        + "first crowd %s; second crowd %s%n",
                master, promoted[0], millis(at[0], at[1]), master, millis(at[0], at[2]), ServiceProbe.IN_A_ROW,
                millis(at[0], at[3]), inWindow, s.first().countSince(at[2], 503), s.first().counts(), second.counts());
        assertFewUnavailable(s.first().countSince(at[3], 503), s.first().attemptsSince(at[3]),
                "purchases sent after the failover window answered 503");
        assertFewUnavailable(second.count(503), second.attempts(), "purchases answered 503 after the failover");
        assertTrue(second.count(202) > 0, "purchases succeeded on the promoted master");
    }

    /**
     * The operator's repair of a killed Redis master: {@code up --cluster} restarts it (it rejoins from its nodes.conf
     * as a replica of the master promoted in its place) while this polls the promoted master until it streams to the
     * node; returns that moment (System.nanoTime). Without a promotion (the wait for it failed) it only restarts.
     */
    private long restartUntilAttached(String node, String promoted) throws Exception {
        if (promoted == null) {
            cluster.up(node);
            return System.nanoTime();
        }
        try (ExecutorService bg = Executors.newSingleThreadExecutor()) {
            Future<?> up = bg.submit(() -> cluster.up(node));
            long attached = Await.value(FAILOVER, () -> cluster.redis().onlineReplicas(promoted).contains(node)
                    ? System.nanoTime() : null, node + " to be attached as a replica of " + promoted);
            up.get();
            return attached;
        }
    }

    /** Another broker leads the sale's partition; no acknowledged order is lost; 503s only during the election. */
    @Test
    @Order(2)
    void kafkaBrokerLeadingTheSaleKilled() throws Exception {
        FaultScenario s = FaultScenario.begin("Kafka broker SIGKILL", site);
        try (ClusterOrdersTopic topic = new ClusterOrdersTopic(cluster)) {
            int partition = topic.partitionOf(s.first().saleId);
            int leader = topic.leaderOf(partition);
            String broker = "kafka-" + leader;
            long[] at = new long[3];
            s.inject(() -> {
                cluster.kill9(broker);
                at[0] = System.nanoTime();
            }, () -> {
                Await.until(FAILOVER, () -> {
                    int now = topic.leaderOf(partition);
                    return now != -1 && now != leader;
                }, "a new leader of partition " + partition);
                at[1] = System.nanoTime();
                probe.awaitServed(s.second(), SERVED);
                at[2] = System.nanoTime();
                // The whole second crowd buys while the broker is dead: two in-sync copies still acknowledge.
                s.second().start();
                s.second().finish();
            }, () -> cluster.up(broker));
            s.finishAndCheck();
            System.out.printf("cluster fault [Kafka broker SIGKILL]: %s (leader of partition %d) killed, new leader "
                            + "after %d ms, every service sending again after %d ms; first crowd %s%n",
                    broker, partition, millis(at[0], at[1]), millis(at[0], at[2]), s.first().counts());
        }
        assertFewUnavailable(s.second().count(503), s.second().attempts(),
                "purchases answered 503 after the election");
        assertTrue(s.second().count(202) > 0, "purchases were accepted with one broker dead");
    }

    /** The edges send new requests to the other service; only the dead one's in-flight requests fail, answered. */
    @Test
    @Order(3)
    void oneServiceKilled() throws Exception {
        oneOfTwoKilled("service SIGKILL", cluster.nodes("service").getLast(), Undelivered.byEdges(cluster));
    }

    /** The other writer takes its partitions; no row is lost or written twice. */
    @Test
    @Order(4)
    void oneWriterKilled() throws Exception {
        FaultScenario s = FaultScenario.begin("writer SIGKILL", site);
        String victim = cluster.nodes("writer").getFirst();
        int partitions;
        try (ClusterOrdersTopic topic = new ClusterOrdersTopic(cluster)) {
            partitions = topic.partitions().size();
            long[] at = new long[2];
            s.inject(() -> {
                cluster.kill9(victim);
                at[0] = System.nanoTime();
            }, () -> {
                s.second().start();
                s.second().finish();
                Await.until(SERVED, () -> topic.assignment().equals(List.of(partitions)),
                        "the one writer left to hold all " + partitions + " partitions");
                at[1] = System.nanoTime();
                s.second().awaitWritten(SERVED);
            }, () -> cluster.up(victim));
            System.out.printf("cluster fault [writer SIGKILL]: %s killed, its partitions taken over after %d ms%n",
                    victim, millis(at[0], at[1]));
        }
        s.finishAndCheck();
        System.out.printf("cluster fault [writer SIGKILL]: first crowd %s; second crowd %s%n", s.first().counts(),
                s.second().counts());
        assertNotEquals(0, partitions);
    }

    /** The load balancer sends to the other edge; only the dead one's in-flight requests fail, answered. */
    @Test
    @Order(5)
    void oneEdgeKilled() throws Exception {
        oneOfTwoKilled("edge SIGKILL", cluster.nodes("edge").getFirst(), Undelivered.byLoadBalancer(cluster));
    }

    /**
     * One of two stateless nodes killed during the first crowd. The layer in front answers 503 itself
     * ({@code undelivered}) only for the requests the dead node held at the kill, and each of those gets that answer;
     * the second crowd, entirely while the node is dead, has every request delivered to the live one (a request
     * whose connection was refused is sent to the other node: it never reached the dead one).
     */
    private void oneOfTwoKilled(String name, String victim, LongSupplier undelivered) throws Exception {
        FaultScenario s = FaultScenario.begin(name, site);
        long[] count = new long[3];
        s.inject(() -> {
            count[0] = undelivered.getAsLong();
            cluster.kill9(victim);
        }, () -> {
            s.first().finish();
            count[1] = undelivered.getAsLong();
            s.second().start();
            s.second().finish();
            count[2] = undelivered.getAsLong();
        }, () -> cluster.up(victim));
        s.finishAndCheck();
        System.out.printf("cluster fault [%s]: %s killed; answered 503 for want of a live %s: %d of the first crowd "
                        + "(in flight at the kill), %d of the second; first crowd %s; second crowd (while it was dead) %s%n",
                name, victim, ClusterStack.kindOf(victim), count[1] - count[0], count[2] - count[1],
                s.first().counts(), s.second().counts());
        assertTrue(count[1] - count[0] <= s.first().connections(), "more undelivered than requests in flight: "
                + (count[1] - count[0]));
        assertEquals(List.of(), s.first().unanswered(), "a shopper left without an answer");
        assertEquals(0, count[2] - count[1], "a new request found no live " + ClusterStack.kindOf(victim));
        assertEquals(0, s.second().count(0), "a new request got no answer");
    }

    private static long millis(long from, long to) {
        return (to - from) / 1_000_000;
    }

    /**
     * After a fault's window, at most one answer in a hundred may be 503. On this shared two-core box a crowd can
     * stall a service's JVM past Redis's 1 s timeout (an honest 503 UNAVAILABLE with nothing held), as in any stampede
     * test (PurchaseConcurrencyIT allows the same share); what a fault would leave behind — a breaker still open, a
     * shard without its replica, units held for failed sends — refuses far more than that.
     */
    private static void assertFewUnavailable(long unavailable, long answers, String what) {
        assertTrue(unavailable * 100 <= answers, what + ": " + unavailable + " of " + answers);
    }
}
