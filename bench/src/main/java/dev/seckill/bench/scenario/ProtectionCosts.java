package dev.seckill.bench.scenario;

import dev.seckill.bench.report.Progress;
import dev.seckill.bench.report.Section;
import dev.seckill.identity.TokenSigner;
import dev.seckill.protection.Challenges;
import dev.seckill.protection.Gate;
import dev.seckill.protection.PurchasePaths;
import dev.seckill.protection.SaleProtection;
import dev.seckill.purchase.LimiterSettings;
import dev.seckill.purchase.RedisStockReserver;
import dev.seckill.redis.ReplicaAcks;
import dev.seckill.redis.ScriptRunner;
import dev.seckill.sale.Sale;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.redisson.api.RScript;
import org.redisson.misc.CompletableFutureWrapper;
import org.redisson.api.RedissonClient;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** JMH benchmarks of a protected sale's in-process costs on the service's classes and of a bot's solve time. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
public class ProtectionCosts {

    private static final String SECRET = "bench-token-secret-of-at-least-32-bytes";
    private final Clock clock = Clock.systemUTC();
    private final Instant now = clock.instant();
    private final PurchasePaths paths = new PurchasePaths(SECRET, Duration.ofSeconds(120), clock);
    private final Gate gate = new Gate(new Challenges(SECRET, Duration.ofSeconds(60), clock), paths,
            (sale, salt, expiresAt) -> true, clock);
    private final Sale plain = new Sale(1, "plain", 100, 10, now.minusSeconds(1), now.plusSeconds(3600));
    private final Sale guarded = new Sale(2, "guarded", 100, 10, now.minusSeconds(1), now.plusSeconds(3600),
            Sale.DEFAULT_PAY_WINDOW_SECONDS, new SaleProtection(SaleProtection.Mode.CHALLENGE, 13));
    private final String path = paths.mint(guarded.id(), 42).path();
    private final TokenSigner signer = new TokenSigner(SECRET, Duration.ofHours(1), clock);
    private final String token = signer.mint(42);
    // Redisson's RScript stubbed where the network would be, answering {QUEUED, stock left} as purchase.lua does.
    private final RedisStockReserver reserver = new RedisStockReserver(new ScriptRunner(stub(RedissonClient.class,
            stub(RScript.class, new CompletableFutureWrapper<Object>(List.of(0L, 9L))))), new LimiterSettings(1, 5),
            ReplicaAcks.none());
    private long orderId;

    @Benchmark
    public Object plainDecision() {
        return gate.purchase(plain, 42, null);
    }

    @Benchmark
    public Object pathCheck() {
        return gate.purchase(guarded, 42, path);
    }

    @Benchmark
    public Object tokenCheck() {
        return signer.verify(token);
    }

    @Benchmark
    public Object scriptCall() {
        return reserver.reserve(plain, 42, ++orderId, System.currentTimeMillis());
    }

    /** One difficulty; JMH reports the iteration's hashes and solves beside the time per solve. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Work {
        // Not public: JMH counts and resets every public field of an @AuxCounters state, and bits 0 never solves.
        @Param({"8", "10", "12", "14", "16"})
        int bits;
        public long hashes;
        public long solves;
        private long salts;
        private MessageDigest sha;

        @Setup(Level.Iteration)
        public void reset() throws NoSuchAlgorithmException {
            hashes = 0;
            solves = 0;
            sha = MessageDigest.getInstance("SHA-256");
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public long solve(Work w) {
        long nonce = solve(w.sha, "salt-" + ++w.salts, w.bits); // a fresh salt, as each challenge brings
        w.hashes += nonce + 1;
        w.solves++;
        return nonce;
    }

    /** The smallest nonce solving {@code salt} at {@code bits} (1..63: {@code >>> -bits} keeps the top bits). */
    static long solve(MessageDigest sha, String salt, int bits) {
        String prefix = salt + ":";
        long n = 0;
        while (ByteBuffer.wrap(sha.digest((prefix + n).getBytes(StandardCharsets.UTF_8))).getLong() >>> -bits != 0) {
            n++;
        }
        return n;
    }

    /** Runs the benchmarks and adds their tables to {@code s}; JMH's own JSON (also in {@code out}) for the data. */
    public static Object run(Section s, Path out) throws Exception {
        Progress.say("protection: JMH, the in-process checks and a bot's solve time per difficulty");
        Path json = Files.createDirectories(out).resolve("protection-jmh.json");
        Collection<RunResult> results = new Runner(new CommandLineOptions(ProtectionCosts.class.getName() + "\\.",
                "-foe", "true", "-v", "SILENT", "-rf", "json", "-rff", json.toString())).run();
        s.text("""
                ### The service's CPU per purchase, in-process (JMH)

                The service's classes under JMH (average time, 1 fork, 2 x 0.3 s warm-up, 5 x 0.3 s measured, error \
                at 99.9%; the best iteration is the one neighbours disturbed least): the purchase decision unprotected \
                (plainDecision) and protected (pathCheck: one HMAC-SHA-256 of the path, no lookup), the token check \
                (one HMAC), the purchase.lua call's Java side (scriptCall; Redis stubbed). A solution costs one \
                SHA-256, one HMAC and one Redis SET NX per path issued.""")
                .table("benchmark", "score", "error", "best iteration");
        Map<String, Double> best = new HashMap<>();
        for (RunResult r : results) {
            Result<?> p = r.getPrimaryResult();
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            best.put(name, p.getStatistics().getMin());
            if (r.getParams().getParam("bits") == null) {
                s.row(name, Section.f("**%.1f** %s", p.getScore(), p.getScoreUnit()), Section.f("± %.1f",
                        p.getScoreError()), Section.f("%.1f %s", p.getStatistics().getMin(), p.getScoreUnit()));
            }
        }
        s.text("Checking a path adds **%.2f µs** of CPU per purchase (pathCheck - plainDecision, best iterations).",
                (best.get("pathCheck") - best.get("plainDecision")) / 1000).text("""
                ### A bot's solve time per difficulty (Java, one core, JMH)

                Fresh salts solved by counting nonces up from 0 as the sale page does, as many as fit in 5 x 0.3 s. A \
                bot pays 2^bits hashes per path, that is per purchase attempt, and cannot start before the sale does.\
                """).table("bits", "salts", "mean hashes", "mean solve", "hashes/s");
        for (RunResult r : results.stream().filter(r -> r.getParams().getParam("bits") != null).toList()) {
            double hashes = r.getSecondaryResults().get("hashes").getScore();
            double salts = r.getSecondaryResults().get("solves").getScore();
            Result<?> p = r.getPrimaryResult();
            s.row(r.getParams().getParam("bits"), (long) salts, Section.f("%,.0f", hashes / salts),
                    Section.f("%.2f ± %.2f ms", p.getScore(), p.getScoreError()),
                    Section.f("%,.0f", hashes / (salts * p.getScore() / 1000)));
        }
        return Section.JSON.readTree(json.toFile());
    }

    /** An instance of {@code type} whose every method answers {@code answer}. */
    private static <T> T stub(Class<T> type, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> answer));
    }
}
