package dev.seckill.system.reliability;

import dev.seckill.bench.Invariants;
import dev.seckill.testkit.Stack;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Six faults, each during a stampede through the edge, each ending with reconcile and the full invariant check
 * read from MySQL and Redis: oversold = 0, duplicates = 0, lost = 0 (every 202 has its row), conservation.
 * Each scenario is bounded in time; all traffic is on loopback.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultSuiteIT {

    private static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final Duration RUN = Duration.ofSeconds(45);
    private final Stack stack = Stack.get();

    private SaleRun stampede() {
        return new SaleRun(600, 2500, 30, RUN).start();
    }

    private void verdict(String scenario, SaleRun run, List<String> actions) throws Exception {
        Invariants.Report report = run.check();
        System.out.println("fault scenario [" + scenario + "]: answers by status " + run.byStatus()
                + "; reconcile actions " + actions + "; " + report.summary());
        assertTrue(report.ok(), scenario + ": " + report.summary());
        assertEquals(0, run.count(500), scenario + ": a 500 was answered");
    }

    @Test
    @Order(1)
    void serviceKilledMidSaleAndRestarted() throws Exception {
        SaleRun run = stampede();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.kill9("service");
        stack.seckill(STACK_OP, "up", "service");
        run.finish();
        verdict("service SIGKILL", run, run.settle());
        assertTrue(run.count(503) > 0 || run.count(202) > 0);
    }

    @Test
    @Order(2)
    void writerKilledMidBatchAndRestarted() throws Exception {
        SaleRun run = stampede();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.kill9("writer");
        long atKill = run.count(202);
        run.awaitAccepted(atKill + 50, Duration.ofSeconds(60));
        stack.seckill(STACK_OP, "up", "writer");
        run.finish();
        verdict("writer SIGKILL", run, run.settle());
    }

    @Test
    @Order(3)
    void databaseStoppedForThirtySecondsMidSale() throws Exception {
        SaleRun run = new SaleRun(600, 2500, 60, Duration.ofSeconds(70)).start();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.seckill(STACK_OP, "down", "db");
        long downAt = System.nanoTime();
        long atStop = run.count(202);
        try {
            // Purchases keep being accepted while MySQL is down (Kafka absorbs them); the outage lasts 30 s.
            dev.seckill.testkit.Await.until(Duration.ofSeconds(60), () -> run.count(202) > atStop
                    && System.nanoTime() - downAt >= Duration.ofSeconds(30).toNanos(), "30 s of accepted purchases without MySQL");
        } finally {
            stack.seckill(STACK_OP, "up", "db");
        }
        run.finish();
        verdict("MySQL down 30 s", run, run.settle());
    }

    @Test
    @Order(4)
    void kafkaStoppedMidSaleAndStarted() throws Exception {
        SaleRun run = new SaleRun(600, 2500, 60, Duration.ofSeconds(70)).start();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.seckill(STACK_OP, "down", "kafka");
        long unavailableBefore = run.count(503);
        try {
            dev.seckill.testkit.Await.until(Duration.ofSeconds(60), () -> run.count(503) > unavailableBefore + 20,
                    "purchases to answer 503 while Kafka is down");
        } finally {
            stack.seckill(STACK_OP, "up", "kafka");
        }
        run.finish();
        verdict("Kafka down", run, run.settle());
    }

    @Test
    @Order(5)
    void redisRestartedWithoutItsDataMidSale() throws Exception {
        SaleRun run = stampede();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.seckill(STACK_OP, "down", "redis");
        deleteRecursively(stack.runDir().resolve("redis"));
        stack.seckill(STACK_OP, "up", "redis");
        long unavailableBefore = run.count(503);
        dev.seckill.testkit.Await.until(Duration.ofSeconds(60), () -> run.count(503) > unavailableBefore,
                "purchases to answer 503 while the sale's keys are gone");
        run.finish();
        List<String> actions = run.settle();
        assertTrue(actions.contains("REBUILT"), "keys rebuilt from the DB: " + actions);
        verdict("Redis restart without data", run, actions);
    }

    @Test
    @Order(6)
    void edgeReloadedUnderLoad() throws Exception {
        SaleRun run = stampede();
        run.awaitAccepted(50, Duration.ofSeconds(60));
        stack.seckill(STACK_OP, "reload-edge");
        long atReload = run.count(202) + run.count(409) + run.count(410);
        run.finish();
        verdict("edge reload", run, run.settle());
        assertEquals(0, run.count(0), "a request got no answer across the reload");
        assertTrue(run.count(202) + run.count(409) + run.count(410) >= atReload);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
