package dev.seckill.system.reliability;

import dev.seckill.check.SaleSummary;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import dev.seckill.testkit.Topology;
import org.redisson.api.RedissonClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shape every fault scenario shares: a whole topology (the single stack, or the cluster); a first crowd
 * stampeding one sale until purchases are being accepted; a second sale whose crowd the scenario lets loose before,
 * during or after the fault; the fault itself with its repair always run; then both crowds finished, settled (writer
 * caught up, reconcile) and checked against the invariants read from MySQL and Redis, with no 500 answered.
 */
public final class FaultScenario {

    /** A step of a scenario; the stack operations and waits it runs fail the test themselves. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /**
     * Where a scenario runs: the topology its crowds and operators reach; how to open the Redis that holds a sale's
     * keys (for the invariant check, read directly); what else must hold of a settled sale there (violations, none
     * when it holds); and how to bring every node up.
     */
    public record Site(Topology topology, LongFunction<RedissonClient> saleRedis, LongFunction<List<String>> alsoCheck,
                       Step up) {
    }

    public static final Duration STACK_OP = Duration.ofSeconds(180);
    private static final Duration RUN = Duration.ofSeconds(45);
    private static final int STOCK = 600;
    private static final int USERS = 2500;
    private static final int CLICKS = 30;

    private final String name;
    private final Site site;
    private final SaleRun first;
    private SaleRun second;

    private FaultScenario(String name, Site site) {
        this.name = name;
        this.site = site;
        this.first = newRun();
        this.second = newRun();
    }

    /** The single stack that bin/seckill test started. */
    static Site singleStack() {
        Stack stack = Stack.get();
        return new Site(stack, saleId -> StackRedis.connect(stack, RedisClients::connect), saleId -> List.of(),
                () -> stack.seckill(STACK_OP, "up"));
    }

    /** Brings the whole single stack up (whatever an earlier scenario left), and starts the first crowd. */
    static FaultScenario begin(String name) throws Exception {
        return begin(name, singleStack());
    }

    /** Brings every node of the site up (whatever an earlier scenario left), and starts the first crowd. */
    public static FaultScenario begin(String name, Site site) throws Exception {
        return begin(name, site, (first, second) -> true);
    }

    /**
     * The same, with a second sale that {@code fits} the first (a sale on the same Redis shard, say): sales are
     * created until one does, before the first crowd starts, so that the fault meets that crowd still clicking (it
     * sells out in seconds). The sales passed over stay unsold.
     */
    public static FaultScenario begin(String name, Site site, BiPredicate<Long, Long> fits) throws Exception {
        site.up().run();
        FaultScenario s = new FaultScenario(name, site);
        for (int i = 0; i < 40 && !fits.test(s.first.saleId, s.second.saleId); i++) {
            s.second = s.newRun();
        }
        assertTrue(fits.test(s.first.saleId, s.second.saleId), name + ": no fitting second sale in 40");
        s.first.start();
        s.first.awaitAccepted(50, Duration.ofSeconds(60));
        return s;
    }

    private SaleRun newRun() {
        return new SaleRun(site.topology(), STOCK, USERS, CLICKS, RUN);
    }

    /**
     * Makes the second crowd click up to {@code clicks} times each for up to {@code run}, instead of the usual: for
     * a fault whose repair may take longer than that on a busy machine, so that the crowd is still there once it is
     * repaired. Before it starts.
     */
    public SaleRun secondLasting(Duration run, int clicks) {
        second = new SaleRun(site.topology(), STOCK, USERS, clicks, run);
        return second;
    }

    /** The first crowd, for what a scenario asserts of it beyond the invariants. */
    public SaleRun first() {
        return first;
    }

    /** The crowd of the second sale, not started until the scenario says so. */
    public SaleRun second() {
        return second;
    }

    /**
     * Runs {@code fault}, then {@code meanwhile} while it lasts, and always {@code repair} after them; then asserts
     * that the fault met the sale: some clicks were in flight during its window (from the fault's start to the end of
     * its repair). A click is counted when its answer (or its failure) came within the window: it was sent before the
     * fault and answered after it began, or sent during it. Those still unanswered when the repair ends are not
     * counted, so the count is a lower bound.
     */
    public void inject(Step fault, Step meanwhile, Step repair) throws Exception {
        long before = answered();
        try {
            fault.run();
            meanwhile.run();
        } finally {
            repair.run();
        }
        long during = answered() - before;
        System.out.println("fault scenario [" + name + "]: " + during + " clicks answered within the fault's window");
        assertTrue(during > 0, name + ": no click was in flight during the fault (answered within its window)");
    }

    /** Clicks of both crowds answered so far (a crowd not started has none). */
    private long answered() {
        return first.attempts() + (second.started() ? second.attempts() : 0);
    }

    /**
     * Waits for both crowds, settles each sale and asserts its invariants and that no 500 was answered; returns
     * the reconcile actions of the first and of the second sale.
     */
    public List<List<String>> finishAndCheck() throws Exception {
        first.finish();
        if (second.started()) {
            second.finish();
        }
        List<List<String>> out = new ArrayList<>();
        out.add(verdict("first crowd", first));
        out.add(second.started() ? verdict("second crowd", second) : List.of());
        return out;
    }

    private List<String> verdict(String crowd, SaleRun run) throws Exception {
        List<String> actions = run.settle();
        RedissonClient redis = site.saleRedis().apply(run.saleId);
        // A unit whose Kafka send failed is held for a resend; once reconcile leaves nothing pending, each
        // was resent, released or found written, and no record of a failed send is left to resend anything.
        int unsent = redis.getMap(Keys.unsent(run.saleId)).size();
        SaleSummary report = run.check(redis);
        List<String> more = site.alsoCheck().apply(run.saleId);
        String label = name + ", " + crowd;
        System.out.println("fault scenario [" + label + "]: " + run.counts() + "; answers by status " + run.byStatus()
                + "; reconcile actions " + actions + "; " + report.summary() + (more.isEmpty() ? "" : "; " + more));
        assertTrue(report.ok(), label + ": " + report.summary());
        assertEquals(0, unsent, label + ": records of failed sends left after reconcile");
        assertEquals(List.of(), more, label);
        assertEquals(0, run.count(500), label + ": a 500 was answered");
        return actions;
    }
}
