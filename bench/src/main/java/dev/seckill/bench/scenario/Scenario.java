package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.load.AnsweredClick;
import dev.seckill.bench.load.LoadClient;
import dev.seckill.bench.load.Steady;
import dev.seckill.bench.load.Users;
import dev.seckill.bench.measure.StatsReading;
import dev.seckill.bench.measure.Meters;
import dev.seckill.bench.load.Timeline;
import dev.seckill.bench.measure.Measured;
import dev.seckill.bench.measure.Sampler;
import dev.seckill.bench.report.BenchReport;
import dev.seckill.check.Checker;
import dev.seckill.check.FinalState;
import dev.seckill.check.Recording;
import dev.seckill.check.SaleSummary;
import dev.seckill.redis.Keys;
import dev.seckill.redis.RedisClients;
import dev.seckill.testkit.AdminSales;
import dev.seckill.testkit.HttpJson;
import dev.seckill.testkit.Stack;
import dev.seckill.testkit.StackRedis;
import com.fasterxml.jackson.databind.JsonNode;
import org.redisson.api.RedissonClient;

import java.io.IOException;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What every scenario runs against, and the skeleton they share: a new sale through the admin API, closed-loop loads
 * on loopback, the wait for the writer, reconcile after answers that decided nothing, and each sale's invariants read
 * from MySQL and its Redis master, gathered in {@code checks} for the report. A scenario keeps only what is its own.
 *
 * @param users  the run's signed-in users (--users from --first-user)
 * @param redis  the bench's client of the stack's Redis, for what runs the purchase script itself (redis-benchmark)
 * @param checks every sale's invariant check so far, in the order the report lists them
 * @param found  what a step found that a later one reads
 */
public record Scenario(Stack stack, AdminSales sales, Meters meters, Sampler sampler, Users users, BenchOptions o,
                       RedissonClient redis, List<BenchReport.Check> checks, Found found) {

    /**
     * What the steps found that later ones read: the flash sale (its window, its answers, its numbers) and its
     * payments; the sold-out short-circuit ceiling of the bench's own client (req/s), when the ceilings ran.
     */
    public static final class Found {
        private FlashSale.Result flashSale;
        private Timeline timeline;
        private FlashSale numbers;
        private PaymentRun.Result payments;
        private Double shortCircuitCeiling;

        public FlashSale.Result flashSale() {
            return flashSale;
        }

        public Timeline timeline() {
            return timeline;
        }

        public FlashSale numbers() {
            return numbers;
        }

        public PaymentRun.Result payments() {
            return payments;
        }

        void flashSale(FlashSale.Result sale, Timeline timeline, FlashSale numbers, PaymentRun.Result payments) {
            this.flashSale = sale;
            this.timeline = timeline;
            this.numbers = numbers;
            this.payments = payments;
        }

        Double shortCircuitCeiling() {
            return shortCircuitCeiling;
        }

        void shortCircuitCeiling(double rps) {
            shortCircuitCeiling = rps;
        }
    }

    /** The service's 200 of the trivial routes: a round of them counts nothing else. */
    public static final Set<String> TRIVIAL_ANSWERS = Set.of("200 OK");

    /** A sale after its run: the reconcile actions its undecided answers needed, and its invariants. */
    public record Settled(int reconciled, SaleSummary invariants) {
    }

    /** kafka.delivery-timeout-ms (5 s) + 1 s: the shortest reconcile grace the service accepts. */
    private static final Duration RECONCILE_GRACE = Duration.ofSeconds(6);
    private static final HttpJson HTTP = new HttpJson(Duration.ofSeconds(5), Duration.ofSeconds(10));

    /** The run's scenario on {@code stack}: its admin calls through the test kit's AdminSales. */
    public Scenario(Stack stack, Sampler sampler, Users users, BenchOptions o, RedissonClient redis) {
        this(stack, new AdminSales(stack, HTTP), new Meters(stack, HTTP), sampler, users, o, redis, new ArrayList<>(),
                new Found());
    }

    /**
     * A sale of {@code stock} units open from {@code startsAt} for two hours, priced 1.00, with {@code more} of its
     * settings (its payment window, its protection); returns its id.
     */
    public long createSale(String name, int stock, Instant startsAt, Map<String, Object> more) throws IOException {
        AdminSales.Sale sale = AdminSales.body(name).priceCents(100).stock(stock).startsAt(startsAt)
                .endsAt(startsAt.plus(Duration.ofHours(2)));
        more.forEach(sale::with);
        return Meters.require(sales.attemptCreate(stack.adminUrl(), sale), 201, "create sale " + name).json()
                .path("id").asLong();
    }

    public StatsReading stats(long sale) throws IOException {
        return StatsReading.read(sales, stack.adminUrl(), sale);
    }

    /** Polls the sale's stats until they are {@code done} (drained, settled); null if they were not in time. */
    public StatsReading await(long sale, Predicate<StatsReading> done, Duration timeout)
            throws IOException, InterruptedException {
        return StatsReading.await(sales, stack.adminUrl(), sale, done, timeout);
    }

    /** A sale "bench-NAME-millis" of {@code stock} units, open from a second ago, with this payment window. */
    public long sale(String name, int stock, Duration payWindow) throws Exception {
        return createSale("bench-" + name + "-" + System.currentTimeMillis(), stock,
                Instant.now().minusSeconds(1), Map.of("payWindowSeconds", payWindow.toSeconds()));
    }

    public long sale(String name, int stock) throws Exception {
        return sale(name, stock, Duration.ofSeconds(900));
    }

    /**
     * The {@code i}-th user's purchase of {@code sale} on {@code port}, tagged with its id (so that a round logs it as
     * an {@link AnsweredClick}).
     */
    public LoadClient.Request purchase(long sale, int i, int port) {
        return new LoadClient.Request(users.purchase(i, sale, port), users.id(i));
    }

    /** A closed-loop round of {@code d}; {@code attempts}, when not null, collects each purchase's answer. */
    public static Measured steady(int port, int connections, String name, IntFunction<LoadClient.Request> requests,
                                  Duration d, List<AnsweredClick> attempts, boolean honourRetryAfter) throws Exception {
        long t0 = System.nanoTime();
        Steady s = new Steady(requests, t0, t0 + d.toNanos(), attempts);
        if (honourRetryAfter) {
            s.honouringRetryAfter(connections);
        }
        LoadClient.run(port, connections, s, t0 + d.toNanos() + Duration.ofSeconds(10).toNanos(),
                Duration.ofSeconds(10));
        return s.result(name);
    }

    /** A round of {@code d} of GET {@code path}, whose answers must be the service's 200. */
    public static Measured trivial(int port, String path, String name, int connections, Duration d)
            throws Exception {
        LoadClient.Request r = new LoadClient.Request(Users.get(path, port), null);
        return steady(port, connections, name, i -> r, d, null, false).require(TRIVIAL_ANSWERS);
    }

    /** Waits until the writer holds every 202 of {@code attempts}; says so when it did not in time. */
    public void awaitDrained(String run, long sale, List<AnsweredClick> attempts, Duration timeout) throws Exception {
        long accepted = attempts.stream().filter(AnsweredClick::accepted).count();
        if (await(sale, x -> x.drained(accepted), timeout) == null) {
            Progress.say(run + ": the writer did not catch up with sale " + sale + " within " + timeout.toSeconds()
                    + " s");
        }
    }

    /** The distinct buyers of the 202s in {@code attempts}, once the writer holds their orders; none is an error. */
    public int[] buyers(String label, long sale, List<AnsweredClick> attempts) throws Exception {
        awaitDrained(label, sale, attempts, Duration.ofSeconds(120));
        int[] b = attempts.stream().filter(AnsweredClick::accepted).mapToInt(a -> users.index(a.userId())).distinct()
                .toArray();
        if (b.length == 0) {
            throw new IOException("no purchase was accepted in sale " + sale + ": " + attempts.stream()
                    .collect(Collectors.groupingBy(AnsweredClick::kind, Collectors.counting())));
        }
        return b;
    }

    /** Drained (within 3 minutes), reconciled after its undecided answers, checked as {@code label}. */
    public Settled settle(String label, long sale, List<AnsweredClick> attempts) throws Exception {
        awaitDrained(label, sale, attempts, Duration.ofMinutes(3));
        int reconciled = reconcileAfterUndecided(sale, attempts);
        return new Settled(reconciled, check(label, sale, attempts, null));
    }

    /**
     * After answers that decided nothing (503, none), which may leave a reservation without an order: waits out the
     * shortest reconcile grace and reconciles, as the periodic reconcile would (docs/failures.md); returns the actions.
     */
    private int reconcileAfterUndecided(long sale, List<AnsweredClick> attempts)
            throws IOException, InterruptedException {
        if (attempts.stream().noneMatch(a -> a.status() == 503 || a.status() == 0)) {
            return 0;
        }
        Thread.sleep(RECONCILE_GRACE.plusSeconds(1));
        JsonNode actions = Meters.require(sales.attemptReconcile(stack.adminUrl(), sale, RECONCILE_GRACE), 200,
                "reconcile sale " + sale).json().path("actions");
        Progress.say("sale " + sale + ": reconcile after the run's 503s: " + actions);
        return actions.size();
    }

    /**
     * The sale's invariants now, judged by the one checker (docs/invariants.md) and added to the run's checks as
     * {@code label}, with the run's own expectation when {@code shoppers} says one ({@link #soldCount}). Read from
     * MySQL and the Redis that holds the sale (one shard on the cluster) directly.
     */
    public SaleSummary check(String label, long sale, List<AnsweredClick> attempts, Long shoppers) throws Exception {
        RedissonClient redis = StackRedis.forKey(stack, Keys.stock(sale), RedisClients::connect);
        try (Connection db = stack.db()) {
            FinalState state = FinalState.read(db, redis, "redis", List.of(sale));
            // The load client drops what is still in flight at its deadline without recording it: those attempts'
            // answers are unknown, and a row none of the recorded answers explains may be one of theirs.
            SaleSummary r = Checker.check(AnsweredClick.ops(sale, attempts), state, Recording.IN_FLIGHT_DROPPED)
                    .sale(sale);
            checks.add(new BenchReport.Check(label, r, soldCount(r, shoppers)));
            return r;
        } finally {
            redis.shutdown();
        }
    }

    /**
     * A run whose every shopper clicked until it held an order or heard SOLD_OUT, and whose orders wait out their
     * window, sold exactly min(stock, shoppers): more would be an oversell or a second order, fewer a unit stuck in
     * a lost reservation. A property of such a run, not an invariant: null when it holds or the run states none
     * ({@code shoppers} null), else what was sold against what was due.
     */
    public static String soldCount(SaleSummary sale, Long shoppers) {
        long due = shoppers == null ? sale.dbOrders() : Math.min(sale.stockTotal(), shoppers);
        return sale.dbOrders() == due ? null : "sold " + sale.dbOrders() + " orders, not min(stock "
                + sale.stockTotal() + ", shoppers " + shoppers + ") = " + due;
    }
}
