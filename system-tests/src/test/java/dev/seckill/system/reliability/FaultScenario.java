package dev.seckill.system.reliability;

import dev.seckill.bench.Invariants;
import dev.seckill.testkit.Stack;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape every fault scenario shares: a whole stack; a first crowd stampeding one sale until purchases are
 * being accepted; a second sale whose crowd the scenario lets loose before, during or after the fault; the fault
 * itself with its repair always run; then both crowds finished, settled (writer caught up, reconcile) and checked
 * against the invariants read from MySQL and Redis, with no 500 answered.
 */
final class FaultScenario {

    /** A step of a scenario; the stack operations and waits it runs fail the test themselves. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final Duration RUN = Duration.ofSeconds(45);
    private static final int STOCK = 600;
    private static final int USERS = 2500;
    private static final int CLICKS = 30;

    final Stack stack = Stack.get();
    private final String name;
    private final SaleRun first;
    private final SaleRun second;

    private FaultScenario(String name) {
        this.name = name;
        this.first = new SaleRun(STOCK, USERS, CLICKS, RUN);
        this.second = new SaleRun(STOCK, USERS, CLICKS, RUN);
    }

    /** Brings the whole stack up (whatever an earlier scenario left), and starts the first crowd. */
    static FaultScenario begin(String name) {
        Stack.get().seckill(STACK_OP, "up");
        FaultScenario s = new FaultScenario(name);
        s.first.start();
        s.first.awaitAccepted(50, Duration.ofSeconds(60));
        return s;
    }

    /** The first crowd, for what a scenario asserts of it beyond the invariants. */
    SaleRun first() {
        return first;
    }

    /** The crowd of the second sale, not started until the scenario says so. */
    SaleRun second() {
        return second;
    }

    /** Runs {@code fault}, then {@code meanwhile} while it lasts, and always {@code repair} after them. */
    void inject(Step fault, Step meanwhile, Step repair) throws Exception {
        try {
            fault.run();
            meanwhile.run();
        } finally {
            repair.run();
        }
    }

    /**
     * Waits for both crowds, settles each sale and asserts its invariants and that no 500 was answered; returns
     * the reconcile actions of the first and of the second sale.
     */
    List<List<String>> finishAndCheck() throws Exception {
        first.finish();
        second.finish();
        return List.of(verdict("first crowd", first), verdict("second crowd", second));
    }

    private List<String> verdict(String crowd, SaleRun run) throws Exception {
        List<String> actions = run.settle();
        Invariants.Report report = run.check();
        String label = name + ", " + crowd;
        System.out.println("fault scenario [" + label + "]: answers by status " + run.byStatus()
                + "; reconcile actions " + actions + "; " + report.summary());
        assertTrue(report.ok(), label + ": " + report.summary());
        assertEquals(0, run.count(500), label + ": a 500 was answered");
        return actions;
    }
}
