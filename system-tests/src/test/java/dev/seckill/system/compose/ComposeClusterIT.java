package dev.seckill.system.compose;

import dev.seckill.check.SaleSummary;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.system.reliability.SaleRun;
import dev.seckill.testkit.Await;
import dev.seckill.testkit.ComposeStack;
import dev.seckill.testkit.RedisCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * compose.yaml's cluster profile under a real Docker engine: {@code docker compose --profile cluster up -d --build
 * --wait lb} from nothing, a sale bought through the load balancer on 127.0.0.1:8080, and the container of the Redis
 * master serving that sale killed ({@code docker kill}) during it: its replica is promoted, the killed node is
 * brought back ({@code up -d --wait}, as a supervisor would) and rejoins, and after reconcile every invariant of
 * docs/invariants.md holds, read from MySQL and from the master that serves the sale now.
 */
@Tag("compose")
// A whole stack built, started and broken inside the test: on a slow machine it may outlast the default timeout.
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class ComposeClusterIT {

    private static final ComposeStack CLUSTER = new ComposeStack(true, ComposeStackIT.BEHIND_A_PROXY);

    @AfterAll
    static void removeEverything() {
        CLUSTER.run("down", "-v", "--remove-orphans");
        assertEquals(List.of(), CLUSTER.leftovers(), "containers, volumes or networks left after down -v");
    }

    @Test
    void theRedisMasterOfASaleKilledDuringItFailsOverAndEveryInvariantHolds() throws Exception {
        CLUSTER.compose("down", "-v", "--remove-orphans");
        long t0 = System.nanoTime();
        CLUSTER.up();
        System.out.printf("compose cluster: up -d --build --wait lb from nothing (images built) healthy in %.1f s%n",
                (System.nanoTime() - t0) / 1e9);

        SaleRun run = new SaleRun(CLUSTER, 2000, 4000, 20, Duration.ofSeconds(180)).start();
        run.awaitAccepted(30, Duration.ofSeconds(60));
        RedisCluster redis = CLUSTER.redis();
        String key = Keys.stock(run.saleId);
        String master = redis.masterOf(key).orElseThrow();
        long attemptsAtKill = run.attempts();
        assertTrue(run.count(202) < 2000, "the sale was still selling when " + master + " was killed: " + run.counts());
        CLUSTER.kill(master);
        String promoted = Await.value(Duration.ofSeconds(60), () -> {
            try {
                return CLUSTER.redis().masterOf(key).filter(m -> !m.equals(master)).orElse(null);
            } catch (IllegalStateException e) {
                return null;
            }
        }, "a replica of " + master + " to be promoted");
        long acceptedAtFailover = run.count(202);
        CLUSTER.compose("up", "-d", "--wait", master);
        Await.until(Duration.ofSeconds(60), () -> "slave".equals(CLUSTER.redis().role(master)),
                master + " to rejoin as a replica of " + promoted);
        run.finish();
        System.out.println("compose cluster: " + master + " killed, " + promoted + " promoted; " + run.counts());
        assertTrue(run.attempts() > attemptsAtKill, "the crowd was buying when " + master + " was killed");
        assertNotEquals(master, promoted);
        assertTrue(run.count(202) > acceptedAtFailover, "purchases were accepted after the failover: " + run.counts());

        List<String> actions = run.settle();
        String now = CLUSTER.redis().masterOf(key).orElseThrow();
        SaleSummary report = run.check(RedisClients.connect("redis://" + CLUSTER.redisNode(now), null,
                CLUSTER.redisPassword()));
        System.out.println("compose cluster sale " + run.saleId + ": by status " + run.byStatus() + "; reconcile "
                + actions + "; " + report.summary());
        Path logs = Path.of("target", "compose-cluster.log");
        Files.writeString(logs, CLUSTER.run("logs", "--no-color", "--timestamps").output());
        System.out.println("compose cluster: the stack's logs are in " + logs.toAbsolutePath());
        assertTrue(report.ok(), report.summary());
        assertEquals(0, run.count(500), "a 500 was answered");
    }
}
